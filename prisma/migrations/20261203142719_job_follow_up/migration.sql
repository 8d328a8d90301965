-- AlterTable
ALTER TABLE "jobs" ADD COLUMN     "follow_up_payload" JSONB;
