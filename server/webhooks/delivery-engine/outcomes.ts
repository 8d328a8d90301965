import { Prisma, type Db } from "../../db/client";
import { indexScanRows } from "../../db/direct-read";
import { wakeJobWorkers } from "../../jobs/wake";
import { log } from "../../log";
import { metrics } from "../../metrics/registry";
import { endpointHealthJobType } from "../endpoint-health-job";
import { nextAttemptDelayMs } from "../retry-schedule";
import type { ClaimedDelivery, StartedAttempt } from "./claim";
import type { Exchange } from "./exchanges";
import { AUTO_DISABLE_AFTER_FAILURES } from "./limits";

/** The receiver says the URL is gone for good: the endpoint is disabled at once. */
const GONE = 410;

/** A request's result and where it moves the delivery. */
export interface AttemptOutcome {
  delivery: ClaimedDelivery;
  attemptId: string;
  /**
   * Whether the attempt's row exists already: the fallback request's is written before it is sent
   * (attempt.ts). Otherwise the outcome writes it, complete, if it still holds the claim (else the
   * sweep has written it as interrupted, and the outcome completes that row).
   */
  attemptRowWritten: boolean;
  exchange: Exchange;
  status: "delivered" | "pending" | "failed";
  nextAttemptAt: Date | null;
  deliveryError: string | null;
}

/**
 * Delivered; failed when the receiver answered 410 Gone or the attempts are used up; else pending
 * again, due by the retry schedule or later when the receiver asked for it (Retry-After).
 */
export function outcomeOf(
  attempt: StartedAttempt,
  attemptRow: { id: string; written: boolean },
  exchange: Exchange,
  deliveryError: string | undefined,
): AttemptOutcome {
  const { delivery } = attempt;
  const finished = delivery.attemptCount >= delivery.maxAttempts || exchange.statusCode === GONE;
  const status = deliveryError === undefined ? "delivered" : finished ? "failed" : "pending";
  if (status !== "delivered") {
    log.info("webhook attempt failed", {
      deliveryId: delivery.id,
      endpointId: delivery.endpointId,
      attempt: delivery.attemptCount,
      outcome: status,
      error: exchange.error,
    });
  }
  return {
    delivery,
    attemptId: attemptRow.id,
    attemptRowWritten: attemptRow.written,
    exchange,
    status,
    nextAttemptAt:
      status === "pending"
        ? new Date(Date.now() + nextAttemptDelayMs(delivery.attemptCount, delivery.maxAttempts, exchange.retryAfterMs))
        : null,
    deliveryError: deliveryError ?? null,
  };
}

/**
 * Records attempt outcomes, many per statement: whatever finished while the previous write was
 * running goes into the next one, so under load the database sees one write per batch and when
 * idle each outcome is written at once. A write also keeps each endpoint's health (writeOutcomes;
 * test deliveries do not count); outcomes are counted in the order they finished.
 */
export class ResultWriter {
  private queue: Array<{ outcome: AttemptOutcome; resolve: () => void; reject: (error: unknown) => void }> = [];
  private writing = false;

  constructor(private readonly db: Db) {}

  record(outcome: AttemptOutcome): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ outcome, resolve, reject });
      void this.drain();
    });
  }

  private async drain(): Promise<void> {
    if (this.writing) return;
    this.writing = true;
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, 500);
      try {
        await writeOutcomes(
          this.db,
          batch.map((entry) => entry.outcome),
        );
        for (const entry of batch) entry.resolve();
      } catch (error) {
        for (const entry of batch) entry.reject(error);
      }
    }
    this.writing = false;
  }
}

/** What one write learned about an endpoint from its outcomes, in the order they finished. */
interface EndpointHealthTally {
  /** A delivery succeeded: the run of failures starts again from zero. */
  reset: boolean;
  /** Failed deliveries since the last success in this write (or since the write began). */
  add: number;
  /**
   * A failed attempt whose delivery will be tried again, since the last success in this write:
   * the endpoint is failing from that first failed attempt (docs/webhooks.md, "Health and
   * warnings"), though only finished deliveries count towards disabling it.
   */
  retrying: boolean;
  lastError: string;
  /** The receiver answered 410 Gone (to a delivery that is not a test). */
  gone: boolean;
}

/** The job that tells an endpoint's owner it started failing or was disabled (docs/webhooks.md, "Health and warnings"). */
export const ENDPOINT_HEALTH_JOB = endpointHealthJobType.kind;

function endpointHealthChanges(outcomes: AttemptOutcome[]): Array<[string, EndpointHealthTally]> {
  const health = new Map<string, EndpointHealthTally>();
  for (const outcome of outcomes) {
    if (outcome.delivery.isTest) continue;
    const entry = health.get(outcome.delivery.endpointId) ?? { reset: false, add: 0, retrying: false, lastError: "", gone: false };
    if (outcome.status === "delivered") Object.assign(entry, { reset: true, add: 0, retrying: false, gone: false });
    else if (outcome.status === "pending") Object.assign(entry, { retrying: true, lastError: outcome.deliveryError ?? "" });
    else {
      Object.assign(entry, { add: entry.add + 1, lastError: outcome.deliveryError ?? "" });
      if (outcome.exchange.statusCode === GONE) entry.gone = true;
    }
    health.set(outcome.delivery.endpointId, entry);
  }
  return [...health.entries()];
}

/**
 * Writes a batch of outcomes in one statement: the deliveries (only while the worker still holds
 * each claim token), their attempts' rows and each endpoint's health. An attempt's row is written
 * here, complete, when its delivery moved on; otherwise it exists already (the fallback request's,
 * written before it was sent, or the one the sweep wrote as interrupted when the lease ran out)
 * and the answer completes it. An endpoint whose failures in a row reach
 * AUTO_DISABLE_AFTER_FAILURES, or whose receiver answered 410 Gone, is disabled; one that starts
 * failing (its first failed attempt since a success) or is disabled gets a health notice job for
 * its owner, queued in the same statement, so a crash can neither lose nor repeat it.
 */
async function writeOutcomes(db: Db, outcomes: AttemptOutcome[]): Promise<void> {
  const endpoints = endpointHealthChanges(outcomes);
  const failingPrefix = `Disabled after ${AUTO_DISABLE_AFTER_FAILURES} failed deliveries in a row; last error: `;
  const gonePrefix = "Disabled because the receiver answered 410 Gone: ";
  const statement = Prisma.sql`
    WITH outcome AS (
      SELECT * FROM unnest(${outcomes.map((o) => o.attemptId)}::uuid[], ${outcomes.map((o) => o.delivery.id)}::uuid[],
                           ${outcomes.map((o) => o.delivery.claimToken)}::uuid[], ${outcomes.map((o) => o.delivery.claimedAt)}::timestamptz[],
                           ${outcomes.map((o) => o.exchange.statusCode ?? null)}::int[],
                           ${outcomes.map((o) => o.exchange.durationMs)}::int[], ${outcomes.map((o) => o.exchange.error ?? null)}::text[],
                           ${outcomes.map((o) => o.status)}::text[], ${outcomes.map((o) => o.nextAttemptAt)}::timestamptz[],
                           ${outcomes.map((o) => o.deliveryError)}::text[], ${outcomes.map((o) => o.attemptRowWritten)}::boolean[])
        AS r(attempt_id, delivery_id, claim_token, claimed_at, status_code, duration_ms, attempt_error, status, next_at, delivery_error,
             row_written)
    ), moved AS (
      UPDATE webhook_deliveries d
      SET status = o.status::webhook_delivery_status, lease_until = NULL, claim_token = NULL, updated_at = now(),
          next_attempt_at = coalesce(o.next_at, d.next_attempt_at), last_error = o.delivery_error,
          delivered_at = CASE WHEN o.status = 'delivered' THEN now() ELSE d.delivered_at END
      FROM outcome o WHERE d.id = o.delivery_id AND d.claim_token = o.claim_token
      RETURNING d.id
    ), recorded AS (
      -- the row of an attempt whose delivery this statement moved (and so holds locked): new
      INSERT INTO webhook_attempts (id, delivery_id, started_at, finished_at, status_code, duration_ms, error)
      SELECT o.attempt_id, o.delivery_id, o.claimed_at, now(), o.status_code, o.duration_ms, o.attempt_error
      FROM outcome o WHERE NOT o.row_written AND o.delivery_id IN (SELECT id FROM moved)
    ), completed AS (
      UPDATE webhook_attempts a SET finished_at = now(), status_code = o.status_code, duration_ms = o.duration_ms, error = o.attempt_error
      FROM outcome o WHERE a.id = o.attempt_id AND (o.row_written OR o.delivery_id NOT IN (SELECT id FROM moved))
    ), health AS (
      SELECT * FROM unnest(${endpoints.map(([id]) => id)}::uuid[], ${endpoints.map(([, h]) => h.reset)}::boolean[],
                           ${endpoints.map(([, h]) => h.add)}::int[], ${endpoints.map(([, h]) => h.lastError)}::text[],
                           ${endpoints.map(([, h]) => h.gone)}::boolean[], ${endpoints.map(([, h]) => h.retrying)}::boolean[])
        AS h(endpoint_id, reset, add, last_error, gone, retrying)
    ), locked AS (
      -- the rows as they are once locked (the lock waits for another writer and returns its
      -- version), so concurrent writers of one endpoint add up instead of overwriting each other;
      -- NO KEY UPDATE, the lock the UPDATE takes anyway, lets routing's foreign-key checks through
      SELECT e.id, e.enabled, e.consecutive_failures, e.failing_since FROM webhook_endpoints e
      WHERE e.id IN (SELECT endpoint_id FROM health) ORDER BY e.id FOR NO KEY UPDATE
    ), counted AS (
      SELECT h.*, (CASE WHEN h.reset THEN 0 ELSE e.consecutive_failures END) + h.add AS failures,
             (h.add > 0 OR h.retrying) AND e.enabled AND (h.reset OR e.failing_since IS NULL) AS starts_failing,
             CASE WHEN NOT e.enabled THEN NULL
                  WHEN h.gone THEN 'gone'
                  WHEN h.add > 0 AND (CASE WHEN h.reset THEN 0 ELSE e.consecutive_failures END) + h.add >= ${AUTO_DISABLE_AFTER_FAILURES}::int
                    THEN 'failing' END AS disable
      FROM health h JOIN locked e ON e.id = h.endpoint_id
    ), updated AS (
      UPDATE webhook_endpoints e
      SET consecutive_failures = c.failures,
          last_success_at = CASE WHEN c.reset THEN now() ELSE e.last_success_at END,
          failing_since = CASE WHEN c.failures = 0 AND NOT c.retrying THEN NULL WHEN c.starts_failing THEN now() ELSE e.failing_since END,
          enabled = e.enabled AND c.disable IS NULL,
          disabled_kind = coalesce(c.disable::webhook_disabled_kind, e.disabled_kind),
          disabled_reason = CASE WHEN c.disable = 'gone' THEN ${gonePrefix} || c.last_error
                                 WHEN c.disable = 'failing' THEN ${failingPrefix} || c.last_error ELSE e.disabled_reason END,
          disabled_at = CASE WHEN c.disable IS NOT NULL THEN now() ELSE e.disabled_at END
      FROM counted c WHERE e.id = c.endpoint_id
      RETURNING e.id, c.failures, c.disable, c.starts_failing, e.failing_since, e.disabled_at
    ), notices AS (
      ${endpointHealthJobType.insertSelected(Prisma.sql`
        SELECT jsonb_build_object('endpointId', n.id::text, 'change', n.change, 'at', n.at) AS payload,
               'webhook-health:' || n.id::text || ':' || n.change || ':' || n.at AS dedupe_key
        FROM (SELECT id, CASE WHEN disable IS NOT NULL THEN 'disabled' ELSE 'failing' END AS change,
                     to_char((CASE WHEN disable IS NOT NULL THEN disabled_at ELSE failing_since END) AT TIME ZONE 'UTC',
                             'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at
              FROM updated WHERE disable IS NOT NULL OR starts_failing) n`)}
    )
    SELECT id::text, failures, disable AS "disabledKind", starts_failing AS "startedFailing" FROM updated
    WHERE disable IS NOT NULL OR starts_failing`;
  // on the driver, prepared, by index only: one per batch of finished requests (docs/measures.md, "Choices in the code")
  const changed = await indexScanRows<{ id: string; failures: number; disabledKind: string | null; startedFailing: boolean }>(
    db,
    statement.text,
    statement.values,
    { preparedAs: "webhook-outcomes" },
  );
  countAttempts(outcomes);
  for (const row of changed) {
    if (row.disabledKind) log.warn("webhook endpoint disabled", { endpointId: row.id, kind: row.disabledKind, failures: row.failures });
    else log.info("webhook endpoint started failing", { endpointId: row.id });
  }
  if (changed.length > 0) await wakeJobWorkers();
}

/** The outcomes just recorded, in exposure_monitor_webhook_attempts_total (docs/operations.md, "Metrics"). */
function countAttempts(outcomes: AttemptOutcome[]): void {
  const counter = metrics().webhookAttempts;
  for (const { delivery, status } of outcomes)
    counter.inc({ protocol: delivery.protocol, outcome: status === "pending" ? "retry" : status });
}
