import type { Db } from "../db/client";
import { badRequest, conflict } from "../errors";
import { wakeJobWorkers } from "../jobs/wake";
import { getEndpoint, type Protocol } from "./endpoints";
import type { WebhookOwner } from "./owner";

export const RECOVER_DISABLED = "Webhook is disabled: enable it before recovering deliveries";
export const RECOVER_UNTIL_BEFORE_SINCE = "until must not be before since";

/**
 * Bulk recovery after a receiver outage (docs/webhooks.md, "Recovering failed deliveries"): every
 * failed delivery of the endpoint created in [since, until) (until: now), test deliveries
 * excepted, is queued again with a fresh round of attempts, as `requeueDelivery` does for one,
 * in one statement. Returns how many were queued.
 *
 * All of them get the same next_attempt_at, so the claim (ordered by next_attempt_at, then
 * sequence) sends them oldest first, at most PER_ENDPOINT_CONCURRENCY at a time like any backlog.
 */
export async function recoverDeliveries(
  db: Db,
  owner: WebhookOwner,
  protocol: Protocol,
  endpointId: string,
  window: { since: Date; until?: Date },
): Promise<number> {
  const { since, until } = window;
  const endpoint = await getEndpoint(db, owner, protocol, endpointId);
  if (Number.isNaN(since.getTime())) throw badRequest("since must be a valid date-time");
  if (until !== undefined && Number.isNaN(until.getTime())) throw badRequest("until must be a valid date-time");
  if (until !== undefined && until < since) throw badRequest(RECOVER_UNTIL_BEFORE_SINCE);
  if (!endpoint.enabled) throw conflict(RECOVER_DISABLED);
  // The endpoint's current maxAttempts, read in the statement; an endpoint disabled since the
  // check above matches no row.
  const queued = await db.$executeRaw`
    UPDATE webhook_deliveries d
    SET status = 'pending', attempt_count = 0, max_attempts = e.max_attempts, fallback_used = false,
        next_attempt_at = now(), last_error = NULL, delivered_at = NULL, updated_at = now()
    FROM webhook_endpoints e
    WHERE e.id = ${endpointId}::uuid AND e.enabled
      AND d.endpoint_id = e.id AND d.status = 'failed' AND NOT d.is_test
      AND d.created_at >= ${since}::timestamptz AND d.created_at < coalesce(${until ?? null}::timestamptz, now())`;
  if (queued === 0) {
    if (!(await getEndpoint(db, owner, protocol, endpointId)).enabled) throw conflict(RECOVER_DISABLED);
    return 0;
  }
  await wakeJobWorkers();
  return queued;
}
