-- AlterTable
ALTER TABLE "channel_notifications" ADD COLUMN     "held" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "integration_channels" ADD COLUMN     "digest" "notice_digest" NOT NULL DEFAULT 'off';

-- CreateIndex
CREATE INDEX "channel_notifications_channel_id_customer_id_idx" ON "channel_notifications"("channel_id", "customer_id") WHERE (held);
