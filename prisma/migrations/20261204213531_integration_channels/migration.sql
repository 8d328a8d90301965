-- CreateEnum
CREATE TYPE "channel_type" AS ENUM ('slack', 'teams', 'syslog');

-- CreateEnum
CREATE TYPE "channel_severity" AS ENUM ('info', 'low', 'medium', 'high', 'critical');

-- AlterEnum
ALTER TYPE "webhook_protocol" ADD VALUE 'channel';

-- CreateTable
CREATE TABLE "integration_channels" (
    "id" UUID NOT NULL,
    "partner_id" UUID NOT NULL,
    "type" "channel_type" NOT NULL,
    "min_severity" "channel_severity" NOT NULL,
    "host" TEXT,
    "port" INTEGER,
    "tls" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "integration_channels_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "channel_notifications" (
    "channel_id" UUID NOT NULL,
    "customer_id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "breach_id" UUID NOT NULL,
    "event_type" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "channel_notifications_pkey" PRIMARY KEY ("channel_id","customer_id","email","breach_id","event_type")
);

-- CreateIndex
CREATE INDEX "integration_channels_partner_id_created_at_idx" ON "integration_channels"("partner_id", "created_at" DESC);

-- AddForeignKey
ALTER TABLE "integration_channels" ADD CONSTRAINT "integration_channels_id_fkey" FOREIGN KEY ("id") REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "integration_channels" ADD CONSTRAINT "integration_channels_partner_id_fkey" FOREIGN KEY ("partner_id") REFERENCES "partners"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "channel_notifications" ADD CONSTRAINT "channel_notifications_channel_id_fkey" FOREIGN KEY ("channel_id") REFERENCES "integration_channels"("id") ON DELETE CASCADE ON UPDATE CASCADE;
