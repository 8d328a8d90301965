-- AlterTable
ALTER TABLE "distributors" ADD COLUMN     "imports_breach_data" BOOLEAN NOT NULL DEFAULT false;
