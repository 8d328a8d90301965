import type { Db } from "../db/client";
import { defineJob } from "../jobs/definition";
import { scheduleJob, slotPayload } from "../jobs/schedules";

/** How long finished deliveries (with their attempts) and routed outbox events are kept. */
export const WEBHOOK_LOG_RETENTION_DAYS = 30;
const DELETE_BATCH = 5_000;

/**
 * Deletes delivered and failed deliveries (their attempts go with them) and outbox events that
 * were routed, once older than the retention period. Pending and delivering deliveries are never
 * touched, and a delivery keeps its own body, so its event is not needed after routing. Deletes
 * run in batches so no statement holds many row locks for long.
 */
export async function purgeOldWebhookRecords(db: Db, now = new Date()): Promise<{ deliveries: number; events: number }> {
  const cutoff = new Date(now.getTime() - WEBHOOK_LOG_RETENTION_DAYS * 86_400_000);
  let deliveries = 0;
  for (;;) {
    const deleted = await db.$executeRaw`
      DELETE FROM webhook_deliveries WHERE id IN (
        SELECT id FROM webhook_deliveries
        WHERE status IN ('delivered', 'failed') AND created_at < ${cutoff}
        LIMIT ${DELETE_BATCH})`;
    deliveries += deleted;
    if (deleted < DELETE_BATCH) break;
  }
  let events = 0;
  for (;;) {
    const deleted = await db.$executeRaw`
      DELETE FROM outbox_events WHERE id IN (
        SELECT id FROM outbox_events WHERE routed_at < ${cutoff} LIMIT ${DELETE_BATCH})`;
    events += deleted;
    if (deleted < DELETE_BATCH) break;
  }
  return { deliveries, events };
}

export const webhookRetentionJob = defineJob({
  kind: "webhooks.retention",
  payload: slotPayload,
  async run(db) {
    await purgeOldWebhookRecords(db);
  },
});

export const webhookRetentionSchedule = scheduleJob(webhookRetentionJob, {
  name: "webhook-retention",
  every: "day",
  hourUtc: 3,
});
