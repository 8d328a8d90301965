-- AlterEnum
-- This migration adds more than one value to an enum.
-- With PostgreSQL versions 11 and earlier, this is not possible
-- in a single migration. This can be worked around by creating
-- multiple migrations, each migration adding only one value to
-- the enum.


ALTER TYPE "notification_kind" ADD VALUE 'webhook_failing';
ALTER TYPE "notification_kind" ADD VALUE 'webhook_disabled';

-- AlterTable
ALTER TABLE "notifications" ADD COLUMN     "distributor_id" UUID,
ADD COLUMN     "partner_id" UUID,
ALTER COLUMN "customer_id" DROP NOT NULL;

-- CreateIndex
CREATE UNIQUE INDEX "notifications_partner_id_kind_cause_recipient_key" ON "notifications"("partner_id", "kind", "cause", "recipient");

-- CreateIndex
CREATE UNIQUE INDEX "notifications_distributor_id_kind_cause_recipient_key" ON "notifications"("distributor_id", "kind", "cause", "recipient");

-- AddForeignKey
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_partner_id_fkey" FOREIGN KEY ("partner_id") REFERENCES "partners"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_distributor_id_fkey" FOREIGN KEY ("distributor_id") REFERENCES "distributors"("id") ON DELETE CASCADE ON UPDATE CASCADE;
