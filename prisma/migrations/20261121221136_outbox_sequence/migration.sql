-- DropIndex
DROP INDEX "outbox_events_routed_at_created_at_idx";

-- AlterTable
ALTER TABLE "outbox_events" ADD COLUMN     "sequence" BIGSERIAL NOT NULL;

-- CreateIndex
CREATE INDEX "outbox_events_routed_at_sequence_idx" ON "outbox_events"("routed_at", "sequence");
