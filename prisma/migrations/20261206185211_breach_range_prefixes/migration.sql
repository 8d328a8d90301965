-- AlterTable
ALTER TABLE "breach_exposures" ADD COLUMN     "email_sha1_prefix" INTEGER;

-- CreateIndex
CREATE INDEX "breach_exposures_email_sha1_prefix_idx" ON "breach_exposures"("email_sha1_prefix") WHERE (email_sha1_prefix IS NOT NULL);
