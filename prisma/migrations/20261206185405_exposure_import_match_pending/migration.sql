-- AlterTable
ALTER TABLE "exposure_imports" ADD COLUMN     "match_pending" BOOLEAN NOT NULL DEFAULT false;
