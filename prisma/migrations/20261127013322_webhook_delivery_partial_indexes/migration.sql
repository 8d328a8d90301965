-- DropIndex
DROP INDEX "webhook_deliveries_status_endpoint_id_next_attempt_at_seque_idx";

-- DropIndex
DROP INDEX "webhook_deliveries_status_next_attempt_at_sequence_idx";

-- CreateIndex
CREATE INDEX "webhook_deliveries_endpoint_id_next_attempt_at_sequence_idx" ON "webhook_deliveries"("endpoint_id", "next_attempt_at", "sequence") WHERE (status = 'pending');

-- CreateIndex
CREATE INDEX "webhook_deliveries_lease_until_idx" ON "webhook_deliveries"("lease_until") WHERE (status = 'delivering');

-- CreateIndex
CREATE INDEX "webhook_deliveries_endpoint_id_created_at_idx" ON "webhook_deliveries"("endpoint_id", "created_at") WHERE (status = 'failed');

-- CreateIndex
CREATE INDEX "webhook_deliveries_created_at_idx" ON "webhook_deliveries"("created_at") WHERE (status = ANY (ARRAY['delivered'::webhook_delivery_status, 'failed'::webhook_delivery_status]));
