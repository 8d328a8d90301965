-- CreateIndex
CREATE INDEX "webhook_deliveries_status_endpoint_id_next_attempt_at_seque_idx" ON "webhook_deliveries"("status", "endpoint_id", "next_attempt_at", "sequence");
