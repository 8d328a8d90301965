import { randomUUID } from "node:crypto";
import { config } from "../config";
import type { Db } from "../db/client";
import { log } from "../log";
import { decryptSecret } from "./app-key";
import { postWebhook } from "./http";
import { ownerKey, ownerOfRow } from "./owner";
import { signingTokensOf, type SigningTokens } from "./secrets";
import { expectedResponseSignature, legacySignatureHeader, signaturesMatch, signBody } from "./signing";

/**
 * The delivery engine: claims due deliveries, makes one attempt each, records the outcome.
 * A delivery moves pending -> delivering (claimed under a lease, with a fresh claim token) ->
 * delivered | failed, or back to pending for its next attempt. Each attempt's row is written
 * before its request goes out and completed after it; a worker that dies mid-attempt leaves
 * the row open and the lease running out, and the sweep records the attempt as interrupted
 * and hands the delivery back (or fails it when its attempts are used up). A late result from
 * a worker whose lease was taken over is refused by the claim token.
 */
export const CURRENT_TIMEOUT_MS = 3_000;
export const LEGACY_TIMEOUT_MS = 2_000;
/** Longer than the longest attempt: a request and the fallback request, each bounded by its timeout. */
export const DELIVERY_LEASE_MS = 30_000;
/** Requests in flight per endpoint (across workers, as counted when claiming). */
export const PER_ENDPOINT_CONCURRENCY = 8;
/** An endpoint is disabled after this many failed deliveries in a row. */
export const AUTO_DISABLE_AFTER_FAILURES = 20;
const MAX_RETRY_DELAY_MS = 3_600_000;
/** How far into the due queue one claim looks when spreading slots over endpoints. */
const CLAIM_SCAN = 1_000;

export const NO_ACTIVE_SECRET = "No active signing secret: the delivery was not sent";
export const ENDPOINT_DISABLED = "Endpoint is disabled: the delivery was not sent";
export const INTERRUPTED = "Interrupted: the worker stopped before the attempt finished";

export interface ClaimedDelivery {
  id: string;
  claimToken: string;
  endpointId: string;
  body: string;
  eventType: string;
  attemptCount: number;
  maxAttempts: number;
  fallbackUsed: boolean;
  isTest: boolean;
  url: string;
  protocol: "current" | "legacy";
  enabled: boolean;
  partnerId: string | null;
  distributorId: string | null;
  secretCiphertext: string | null;
}

/** A claimed delivery whose attempt row is written: ready to send. */
export interface StartedAttempt {
  delivery: ClaimedDelivery;
  attemptId: string;
  /** Attempts made in this round including this one. */
  attemptNumber: number;
  signing: { protocol: "current"; tokens: SigningTokens & { active: string } } | { protocol: "legacy"; secret: string };
}

/**
 * Claims up to `limit` due deliveries (FOR UPDATE SKIP LOCKED), at most `perEndpoint` in flight
 * per endpoint counting those other workers hold, oldest due first.
 */
export async function claimDueDeliveries(
  db: Db,
  { limit, perEndpoint = PER_ENDPOINT_CONCURRENCY, leaseMs = DELIVERY_LEASE_MS }: { limit: number; perEndpoint?: number; leaseMs?: number },
): Promise<ClaimedDelivery[]> {
  if (limit <= 0) return [];
  return db.$queryRaw<ClaimedDelivery[]>`
    WITH busy AS (
      SELECT endpoint_id, count(*)::int AS n FROM webhook_deliveries WHERE status = 'delivering' GROUP BY endpoint_id
    ), due AS (
      SELECT id, endpoint_id, next_attempt_at, sequence,
             row_number() OVER (PARTITION BY endpoint_id ORDER BY next_attempt_at, sequence) AS rank
      FROM (SELECT id, endpoint_id, next_attempt_at, sequence FROM webhook_deliveries
            WHERE status = 'pending' AND next_attempt_at <= now()
            ORDER BY next_attempt_at, sequence LIMIT ${CLAIM_SCAN}) candidates
    ), picked AS (
      SELECT d.id FROM webhook_deliveries d
      WHERE d.id IN (
        SELECT due.id FROM due LEFT JOIN busy USING (endpoint_id)
        WHERE due.rank <= ${perEndpoint}::int - coalesce(busy.n, 0)
        ORDER BY due.next_attempt_at, due.sequence LIMIT ${limit}::int)
        AND d.status = 'pending'
      FOR UPDATE SKIP LOCKED
    )
    UPDATE webhook_deliveries d
    SET status = 'delivering', claim_token = gen_random_uuid(), updated_at = now(),
        lease_until = now() + make_interval(secs => ${leaseMs / 1000}::double precision)
    FROM picked, webhook_endpoints e
    WHERE d.id = picked.id AND e.id = d.endpoint_id
    RETURNING d.id::text, d.claim_token::text AS "claimToken", d.endpoint_id::text AS "endpointId", d.body,
              d.event_type AS "eventType", d.attempt_count AS "attemptCount", d.max_attempts AS "maxAttempts",
              d.fallback_used AS "fallbackUsed", d.is_test AS "isTest", e.url, e.protocol::text AS protocol, e.enabled,
              e.partner_id::text AS "partnerId", e.distributor_id::text AS "distributorId",
              e.secret_ciphertext AS "secretCiphertext"`;
}

/**
 * Writes the attempt rows of the claimed deliveries that can be sent, and fails without a
 * request those that cannot: the endpoint was disabled meanwhile (test deliveries excepted), or
 * the organization has no active signing secret (SPEC 6.1 rule 6).
 */
export async function startAttempts(db: Db, claimed: ClaimedDelivery[]): Promise<StartedAttempt[]> {
  if (claimed.length === 0) return [];
  const owners = claimed.filter((delivery) => delivery.protocol === "current").map(ownerOfRow);
  const tokensByOwner = owners.length > 0 ? await signingTokensOf(db, owners) : new Map<string, SigningTokens>();
  const refused: Array<{ delivery: ClaimedDelivery; error: string }> = [];
  const ready: Array<Omit<StartedAttempt, "attemptId">> = [];
  for (const delivery of claimed) {
    if (!delivery.enabled && !delivery.isTest) {
      refused.push({ delivery, error: ENDPOINT_DISABLED });
    } else if (delivery.protocol === "legacy") {
      ready.push({ delivery, attemptNumber: delivery.attemptCount + 1, signing: { protocol: "legacy", secret: decryptSecret(delivery.secretCiphertext!) } });
    } else {
      const tokens = tokensByOwner.get(ownerKey(ownerOfRow(delivery)));
      if (tokens?.active) ready.push({ delivery, attemptNumber: delivery.attemptCount + 1, signing: { protocol: "current", tokens: { ...tokens, active: tokens.active } } });
      else refused.push({ delivery, error: NO_ACTIVE_SECRET });
    }
  }
  if (refused.length > 0) {
    await db.$executeRaw`
      UPDATE webhook_deliveries d
      SET status = 'failed', last_error = r.error, lease_until = NULL, claim_token = NULL, updated_at = now()
      FROM unnest(${refused.map((r) => r.delivery.id)}::uuid[], ${refused.map((r) => r.delivery.claimToken)}::uuid[],
                  ${refused.map((r) => r.error)}::text[]) AS r(id, claim_token, error)
      WHERE d.id = r.id AND d.claim_token = r.claim_token`;
    for (const { delivery, error } of refused) log.warn("webhook delivery failed without a request", { deliveryId: delivery.id, endpointId: delivery.endpointId, error });
  }
  if (ready.length === 0) return [];
  const rows = await db.$queryRaw<Array<{ attemptId: string; deliveryId: string }>>`
    WITH counted AS (
      UPDATE webhook_deliveries SET attempt_count = attempt_count + 1, updated_at = now()
      WHERE id = ANY(${ready.map((r) => r.delivery.id)}::uuid[]) RETURNING id
    )
    INSERT INTO webhook_attempts (delivery_id, started_at) SELECT id, now() FROM counted
    RETURNING id::text AS "attemptId", delivery_id::text AS "deliveryId"`;
  const attemptOf = new Map(rows.map((row) => [row.deliveryId, row.attemptId]));
  return ready.map((entry) => ({ ...entry, attemptId: attemptOf.get(entry.delivery.id)! }));
}

interface Exchange {
  statusCode?: number;
  durationMs: number;
  /** Undefined when the attempt succeeded. */
  error?: string;
  /** The answer was 2xx and signed, but not with the token the request was signed with. */
  signatureMismatch: boolean;
}

/** One request of the current protocol: signed with `token`, its answer verified with the same token. */
async function exchangeCurrent(delivery: ClaimedDelivery, token: string): Promise<Exchange> {
  const requestToken = randomUUID();
  const outcome = await postWebhook(delivery.url, { "x-signature": signBody(token, delivery.body), "x-token": requestToken }, delivery.body, CURRENT_TIMEOUT_MS);
  const failure = httpFailure(outcome.statusCode, outcome.error);
  if (failure) return { ...outcome, error: failure, signatureMismatch: false };
  if (!outcome.signature) return { ...outcome, error: "Response has no X-Signature header", signatureMismatch: false };
  if (signaturesMatch(expectedResponseSignature(token, requestToken, delivery.body), outcome.signature)) {
    return { ...outcome, error: undefined, signatureMismatch: false };
  }
  return { ...outcome, error: "Response X-Signature does not verify", signatureMismatch: true };
}

async function exchangeLegacy(delivery: ClaimedDelivery, secret: string): Promise<Exchange> {
  const outcome = await postWebhook(
    delivery.url,
    { "x-service-event": delivery.eventType, "x-service-signature": legacySignatureHeader(secret, delivery.body) },
    delivery.body,
    LEGACY_TIMEOUT_MS,
  );
  return { ...outcome, error: httpFailure(outcome.statusCode, outcome.error), signatureMismatch: false };
}

function httpFailure(statusCode: number | undefined, error: string | undefined): string | undefined {
  if (error) return error;
  if (statusCode === undefined || statusCode < 200 || statusCode > 299) return `HTTP ${statusCode}`;
  return undefined;
}

/**
 * Sends one started attempt and records its outcome. On the current protocol, an answer that
 * fails only because its signature does not verify with the active token is followed, once per
 * delivery and only while a fallback secret exists, by one extra request signed and verified
 * with the fallback token (SPEC 6.1 rule 4); that request does not count against maxAttempts.
 */
export async function performAttempt(db: Db, attempt: StartedAttempt): Promise<void> {
  const { delivery, signing } = attempt;
  const first = signing.protocol === "legacy" ? await exchangeLegacy(delivery, signing.secret) : await exchangeCurrent(delivery, signing.tokens.active);
  const fallbackToken = signing.protocol === "current" ? signing.tokens.fallback : undefined;
  if (first.signatureMismatch && fallbackToken && !delivery.fallbackUsed) {
    const fallbackAttemptId = await recordFirstAndStartFallback(db, attempt, first);
    if (!fallbackAttemptId) return;
    const second = await exchangeCurrent(delivery, fallbackToken);
    await finishAttempt(db, attempt, fallbackAttemptId, second, second.error ? first.error : undefined);
    return;
  }
  await finishAttempt(db, attempt, attempt.attemptId, first, first.error);
}

/** Completes the active-secret attempt and writes the fallback request's attempt row; undefined when the lease was lost. */
async function recordFirstAndStartFallback(db: Db, attempt: StartedAttempt, first: Exchange): Promise<string | undefined> {
  const rows = await db.$queryRaw<Array<{ id: string }>>`
    WITH done AS (
      UPDATE webhook_attempts SET finished_at = now(), status_code = ${first.statusCode ?? null}::int,
             duration_ms = ${first.durationMs}::int, error = ${first.error ?? null}
      WHERE id = ${attempt.attemptId}::uuid
    ), marked AS (
      UPDATE webhook_deliveries SET fallback_used = true, updated_at = now()
      WHERE id = ${attempt.delivery.id}::uuid AND claim_token = ${attempt.delivery.claimToken}::uuid
      RETURNING id
    )
    INSERT INTO webhook_attempts (delivery_id, fallback_secret, started_at) SELECT id, true, now() FROM marked
    RETURNING id::text`;
  return rows[0]?.id;
}

export function retryDelayMs(failedAttempts: number): number {
  const exponential = Math.min(config.webhookRetryBaseMs() * 2 ** Math.max(0, failedAttempts - 1), MAX_RETRY_DELAY_MS);
  return Math.round(exponential * (0.75 + Math.random() * 0.5));
}

/**
 * Records a request's result and moves the delivery on: delivered; pending again after a
 * backoff while attempts remain; else failed. A final outcome also updates the endpoint's run
 * of failures, disabling it at AUTO_DISABLE_AFTER_FAILURES (test deliveries do not count).
 */
async function finishAttempt(db: Db, attempt: StartedAttempt, attemptId: string, exchange: Exchange, deliveryError: string | undefined) {
  const { delivery } = attempt;
  const status = deliveryError === undefined ? "delivered" : attempt.attemptNumber >= delivery.maxAttempts ? "failed" : "pending";
  const nextAttemptAt = status === "pending" ? new Date(Date.now() + retryDelayMs(attempt.attemptNumber)) : null;
  const disabledReason = `Disabled after ${AUTO_DISABLE_AFTER_FAILURES} failed deliveries in a row; last error: ${deliveryError ?? ""}`;
  const rows = await db.$queryRaw<Array<{ enabled: boolean; failures: number }>>`
    WITH done AS (
      UPDATE webhook_attempts SET finished_at = now(), status_code = ${exchange.statusCode ?? null}::int,
             duration_ms = ${exchange.durationMs}::int, error = ${exchange.error ?? null}
      WHERE id = ${attemptId}::uuid
    ), moved AS (
      UPDATE webhook_deliveries
      SET status = ${status}::webhook_delivery_status, lease_until = NULL, claim_token = NULL, updated_at = now(),
          next_attempt_at = coalesce(${nextAttemptAt}::timestamptz, next_attempt_at),
          last_error = ${deliveryError ?? null},
          delivered_at = CASE WHEN ${status} = 'delivered' THEN now() ELSE delivered_at END
      WHERE id = ${delivery.id}::uuid AND claim_token = ${delivery.claimToken}::uuid
      RETURNING endpoint_id, is_test
    )
    UPDATE webhook_endpoints e
    SET consecutive_failures = CASE WHEN ${status} = 'delivered' THEN 0 ELSE e.consecutive_failures + 1 END,
        disabled_reason = CASE WHEN ${status} = 'failed' AND e.enabled AND e.consecutive_failures + 1 >= ${AUTO_DISABLE_AFTER_FAILURES}::int
                               THEN ${disabledReason} ELSE e.disabled_reason END,
        disabled_at = CASE WHEN ${status} = 'failed' AND e.enabled AND e.consecutive_failures + 1 >= ${AUTO_DISABLE_AFTER_FAILURES}::int
                           THEN now() ELSE e.disabled_at END,
        enabled = e.enabled AND NOT (${status} = 'failed' AND e.consecutive_failures + 1 >= ${AUTO_DISABLE_AFTER_FAILURES}::int)
    FROM moved
    WHERE e.id = moved.endpoint_id AND NOT moved.is_test AND ${status} <> 'pending'
    RETURNING e.enabled, e.consecutive_failures AS failures`;
  if (status !== "delivered") {
    log.info("webhook attempt failed", { deliveryId: delivery.id, endpointId: delivery.endpointId, attempt: attempt.attemptNumber, outcome: status, error: exchange.error });
  }
  if (rows[0] && !rows[0].enabled && rows[0].failures === AUTO_DISABLE_AFTER_FAILURES) {
    log.warn("webhook endpoint disabled after failed deliveries in a row", { endpointId: delivery.endpointId, failures: rows[0].failures });
  }
}

/**
 * Re-drives work a dead worker left behind: deliveries whose lease ran out get their open
 * attempt recorded as interrupted, then go back to pending, or to failed when that attempt was
 * their last. Returns how many deliveries it recovered.
 */
export async function sweepDeliveries(db: Db): Promise<number> {
  const rows = await db.$queryRaw<Array<{ id: string }>>`
    WITH expired AS (
      SELECT id FROM webhook_deliveries WHERE status = 'delivering' AND lease_until < now() FOR UPDATE SKIP LOCKED
    ), closed AS (
      UPDATE webhook_attempts a SET finished_at = now(), error = ${INTERRUPTED}
      FROM expired WHERE a.delivery_id = expired.id AND a.finished_at IS NULL
    )
    UPDATE webhook_deliveries d
    SET status = CASE WHEN d.attempt_count >= d.max_attempts THEN 'failed'::webhook_delivery_status ELSE 'pending'::webhook_delivery_status END,
        next_attempt_at = now(), lease_until = NULL, claim_token = NULL, last_error = ${INTERRUPTED}, updated_at = now()
    FROM expired WHERE d.id = expired.id
    RETURNING d.id::text`;
  if (rows.length > 0) log.warn("webhook deliveries recovered from an expired lease", { count: rows.length });
  return rows.length;
}

/** When the next delivery is due, or the next lease runs out; undefined when nothing waits. */
export async function nextDeliveryDueAt(db: Db): Promise<Date | undefined> {
  const rows = await db.$queryRaw<Array<{ at: Date | null }>>`
    SELECT least(
      (SELECT min(next_attempt_at) FROM webhook_deliveries WHERE status = 'pending'),
      (SELECT min(lease_until) FROM webhook_deliveries WHERE status = 'delivering'),
      (SELECT min(created_at) FROM outbox_events WHERE routed_at IS NULL)) AS at`;
  return rows[0]?.at ?? undefined;
}

/** Claims, sends and records one batch, `concurrency` requests at a time. Returns how many it claimed. */
export async function deliverDueBatch(db: Db, { limit = 100, concurrency = 16 } = {}): Promise<number> {
  const claimed = await claimDueDeliveries(db, { limit });
  const attempts = await startAttempts(db, claimed);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, attempts.length) }, async () => {
      while (next < attempts.length) await performAttempt(db, attempts[next++]!);
    }),
  );
  return claimed.length;
}
