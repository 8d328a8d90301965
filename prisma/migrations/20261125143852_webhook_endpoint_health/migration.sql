-- CreateEnum
CREATE TYPE "webhook_signature_scheme" AS ENUM ('x-signature', 'standard-webhooks');

-- CreateEnum
CREATE TYPE "webhook_disabled_kind" AS ENUM ('failing', 'gone', 'manual');

-- AlterTable
ALTER TABLE "webhook_endpoints" ADD COLUMN     "disabled_kind" "webhook_disabled_kind",
ADD COLUMN     "failing_since" TIMESTAMPTZ(3),
ADD COLUMN     "last_success_at" TIMESTAMPTZ(3),
ADD COLUMN     "signature_scheme" "webhook_signature_scheme" NOT NULL DEFAULT 'x-signature';
