-- AlterTable
ALTER TABLE "distributors" ALTER COLUMN "domain_policy" SET DEFAULT 'verified';
