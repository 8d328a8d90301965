-- AlterTable
ALTER TABLE "psa_tickets" ADD COLUMN     "note_attempts" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "pending_note_key" TEXT,
ADD COLUMN     "pending_note_mailboxes" TEXT[] DEFAULT ARRAY[]::TEXT[];
