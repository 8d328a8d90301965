-- AlterTable
ALTER TABLE "customers" ALTER COLUMN "currency_code" DROP NOT NULL;
