-- AlterTable
ALTER TABLE "psa_connections" ADD COLUMN     "digest" "notice_digest" NOT NULL DEFAULT 'off',
ADD COLUMN     "last_digest_slot" TEXT;
