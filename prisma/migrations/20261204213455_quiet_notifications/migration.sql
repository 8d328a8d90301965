-- CreateEnum
CREATE TYPE "notice_digest" AS ENUM ('off', 'daily', 'weekly');

-- CreateEnum
CREATE TYPE "mute_source" AS ENUM ('partner', 'customer', 'staff');

-- AlterTable
ALTER TABLE "customers" ADD COLUMN     "alert_digest" "notice_digest" NOT NULL DEFAULT 'off';

-- CreateTable
CREATE TABLE "notification_notices" (
    "channel" TEXT NOT NULL,
    "customer_id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "breach_id" UUID NOT NULL,
    "digest" "notice_digest" NOT NULL DEFAULT 'off',
    "held" BOOLEAN NOT NULL DEFAULT false,
    "told_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "notification_notices_pkey" PRIMARY KEY ("channel","customer_id","email","breach_id")
);

-- CreateTable
CREATE TABLE "notification_mutes" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "customer_id" UUID NOT NULL,
    "email" TEXT,
    "breach_id" UUID,
    "until" TIMESTAMPTZ(3),
    "muted_by" "mute_source" NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "notification_mutes_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "notification_notices_digest_channel_customer_id_idx" ON "notification_notices"("digest", "channel", "customer_id") WHERE (held);

-- CreateIndex
CREATE INDEX "notification_notices_breach_id_idx" ON "notification_notices"("breach_id");

-- CreateIndex
CREATE INDEX "notification_mutes_customer_id_idx" ON "notification_mutes"("customer_id");

-- CreateIndex
CREATE INDEX "notification_mutes_breach_id_idx" ON "notification_mutes"("breach_id");

-- AddForeignKey
ALTER TABLE "notification_notices" ADD CONSTRAINT "notification_notices_customer_id_fkey" FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notification_notices" ADD CONSTRAINT "notification_notices_breach_id_fkey" FOREIGN KEY ("breach_id") REFERENCES "breaches"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notification_mutes" ADD CONSTRAINT "notification_mutes_customer_id_fkey" FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notification_mutes" ADD CONSTRAINT "notification_mutes_breach_id_fkey" FOREIGN KEY ("breach_id") REFERENCES "breaches"("id") ON DELETE CASCADE ON UPDATE CASCADE;
