-- AlterTable
ALTER TABLE "customers" ADD COLUMN     "breach_count" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "monitored_domain_count" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "monitored_email_count" INTEGER NOT NULL DEFAULT 0;
