import type { Db } from "../../db/client";
import { log } from "../../log";
import { metrics } from "../../metrics/registry";
import { INTERRUPTED } from "./failure-messages";

/**
 * Re-drives work a dead worker left behind: deliveries whose lease ran out get the attempt they
 * were claimed for recorded as interrupted (its row written, or the fallback request's open row
 * closed), then go back to pending, or to failed when that attempt was their last. Returns how
 * many deliveries it recovered.
 */
export async function sweepDeliveries(db: Db): Promise<number> {
  const rows = await db.$queryRaw<Array<{ id: string; protocol: "current" | "legacy"; interrupted: number }>>`
    WITH expired AS (
      SELECT id, claim_token, updated_at FROM webhook_deliveries WHERE status = 'delivering' AND lease_until < now() FOR UPDATE SKIP LOCKED
    ), closed AS (
      UPDATE webhook_attempts a SET finished_at = now(), error = ${INTERRUPTED}
      FROM expired WHERE a.delivery_id = expired.id AND a.finished_at IS NULL
      RETURNING a.delivery_id
    ), recorded AS (
      -- the claimed attempt's row, unless an open row (a fallback request's) stands for it
      INSERT INTO webhook_attempts (id, delivery_id, started_at, finished_at, error)
      SELECT claim_token, id, updated_at, now(), ${INTERRUPTED} FROM expired
      WHERE claim_token IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM webhook_attempts a WHERE a.delivery_id = expired.id AND a.finished_at IS NULL)
      ON CONFLICT (id) DO NOTHING
      RETURNING delivery_id
    )
    UPDATE webhook_deliveries d
    SET status = CASE WHEN d.attempt_count >= d.max_attempts THEN 'failed'::webhook_delivery_status ELSE 'pending'::webhook_delivery_status END,
        next_attempt_at = now(), lease_until = NULL, claim_token = NULL, last_error = ${INTERRUPTED}, updated_at = now()
    FROM expired WHERE d.id = expired.id
    RETURNING d.id::text, (SELECT e.protocol::text FROM webhook_endpoints e WHERE e.id = d.endpoint_id) AS protocol,
              (SELECT count(*)::int FROM closed WHERE closed.delivery_id = d.id)
                + (SELECT count(*)::int FROM recorded WHERE recorded.delivery_id = d.id) AS interrupted`;
  for (const row of rows)
    if (row.interrupted > 0) metrics().webhookAttempts.inc({ protocol: row.protocol, outcome: "interrupted" }, row.interrupted);
  if (rows.length > 0) log.warn("webhook deliveries recovered from an expired lease", { count: rows.length });
  return rows.length;
}
