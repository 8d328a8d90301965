import { randomUUID } from "node:crypto";
import { config } from "../config";
import type { Db, Prisma } from "../db/client";
import { wakeJobWorkers } from "../jobs/wake";
import { log } from "../log";
import { metrics } from "../metrics/registry";
import { decryptSecret } from "../app-key";
import { postWebhook } from "./http";
import { nextAttemptDelayMs } from "./retry-schedule";
import type { SigningTokens } from "./secrets";
import type { SignatureScheme } from "./endpoints";
import { expectedResponseSignature, legacySignatureHeader, signaturesMatch, signBody, standardWebhookSignature } from "./signing";

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
export const PER_ENDPOINT_CONCURRENCY = 32;
/** An endpoint is disabled after this many failed deliveries in a row. */
export const AUTO_DISABLE_AFTER_FAILURES = 20;

export const NO_ACTIVE_SECRET = "No active signing secret: the delivery was not sent";
export const ENDPOINT_DISABLED = "Endpoint is disabled: the delivery was not sent";
export const INTERRUPTED = "Interrupted: the worker stopped before the attempt finished";

export interface ClaimedDelivery {
  id: string;
  claimToken: string;
  endpointId: string;
  /** The delivery's idempotency token (`webhook-id` under Standard Webhooks). */
  idempotencyToken: string;
  body: string;
  eventType: string;
  /** Attempts made in this round, this one included. */
  attemptCount: number;
  maxAttempts: number;
  fallbackUsed: boolean;
  isTest: boolean;
  url: string;
  protocol: "current" | "legacy";
  signatureScheme: SignatureScheme;
}

/** A claimed delivery whose attempt row is written: ready to send. */
export interface StartedAttempt {
  delivery: ClaimedDelivery;
  attemptId: string;
  signing: { protocol: "current"; tokens: SigningTokens & { active: string } } | { protocol: "legacy"; secret: string };
}

interface ClaimRow extends ClaimedDelivery {
  refusal: string | null;
  attemptId: string | null;
  secretCiphertext: string | null;
  activeCiphertext: string | null;
  fallbackCiphertext: string | null;
}

/**
 * Claims up to `limit` due deliveries in one statement: picks them (FOR UPDATE SKIP LOCKED, at
 * most `perEndpoint` in flight per endpoint counting those other workers hold, oldest due
 * first). Candidates are taken per endpoint (the endpoints with pending deliveries are walked
 * through the (status, endpoint_id, ...) index, one descent each), so a backlog on one endpoint,
 * such as a recover of thousands, never holds back another endpoint's deliveries. It writes the attempt row of each one that can be sent and takes it under a lease, and
 * fails without a request those that cannot be sent: the endpoint was disabled meanwhile (test
 * deliveries excepted), or the organization has no active signing secret (docs/webhooks.md).
 */
export async function claimAttempts(
  db: Db,
  { limit, perEndpoint = PER_ENDPOINT_CONCURRENCY, leaseMs = DELIVERY_LEASE_MS }: { limit: number; perEndpoint?: number; leaseMs?: number },
): Promise<{ claimed: number; started: StartedAttempt[] }> {
  if (limit <= 0) return { claimed: 0, started: [] };
  // Plain index scans only: every claim and every result moves rows between statuses, which leaves
  // a dead index entry per move until VACUUM comes round. A plain index scan marks the dead
  // entries it meets so the next claim skips them; a bitmap scan (the planner's choice while the
  // table's statistics lag behind a burst) revisits them all, which under a large backlog makes
  // each claim far dearer (measured: docs/measures.md, "Choices in the code").
  const rows = await db.$transaction(
    async (tx) => {
      await tx.$executeRaw`SET LOCAL enable_bitmapscan = off`;
      return claimRows(tx, { limit, perEndpoint, leaseMs });
    },
    // a busy pool is a reason to wait for a connection, not to fail the claim
    { maxWait: 30_000, timeout: 30_000 },
  );
  const started: StartedAttempt[] = [];
  for (const { refusal, attemptId, secretCiphertext, activeCiphertext, fallbackCiphertext, ...delivery } of rows) {
    if (refusal !== null || attemptId === null) {
      log.warn("webhook delivery failed without a request", { deliveryId: delivery.id, endpointId: delivery.endpointId, error: refusal });
      continue;
    }
    const signing: StartedAttempt["signing"] =
      delivery.protocol === "legacy"
        ? { protocol: "legacy", secret: decryptSecret(secretCiphertext!) }
        : {
            protocol: "current",
            tokens: { active: decryptSecret(activeCiphertext!), fallback: fallbackCiphertext ? decryptSecret(fallbackCiphertext) : undefined },
          };
    started.push({ delivery, attemptId, signing });
  }
  return { claimed: rows.length, started };
}

/** The claim itself: one statement. */
async function claimRows(
  tx: Prisma.TransactionClient,
  { limit, perEndpoint, leaseMs }: { limit: number; perEndpoint: number; leaseMs: number },
): Promise<ClaimRow[]> {
  return tx.$queryRaw<ClaimRow[]>`
    WITH RECURSIVE owners AS (
      (SELECT endpoint_id FROM webhook_deliveries WHERE status = 'pending' ORDER BY endpoint_id LIMIT 1)
      UNION ALL
      SELECT (SELECT d.endpoint_id FROM webhook_deliveries d
              WHERE d.status = 'pending' AND d.endpoint_id > owners.endpoint_id ORDER BY d.endpoint_id LIMIT 1)
      FROM owners WHERE owners.endpoint_id IS NOT NULL
    ), busy AS (
      SELECT endpoint_id, count(*)::int AS n FROM webhook_deliveries WHERE status = 'delivering' GROUP BY endpoint_id
    ), due AS (
      SELECT next.id, next.next_attempt_at, next.sequence
      FROM owners LEFT JOIN busy USING (endpoint_id)
      CROSS JOIN LATERAL (
        SELECT d.id, d.next_attempt_at, d.sequence FROM webhook_deliveries d
        WHERE d.status = 'pending' AND d.endpoint_id = owners.endpoint_id AND d.next_attempt_at <= now()
        ORDER BY d.next_attempt_at, d.sequence
        LIMIT greatest(0, ${perEndpoint}::int - coalesce(busy.n, 0))) next
      WHERE owners.endpoint_id IS NOT NULL
    ), picked AS (
      SELECT d.id FROM webhook_deliveries d
      WHERE d.id IN (SELECT due.id FROM due ORDER BY due.next_attempt_at, due.sequence LIMIT ${limit}::int)
        AND d.status = 'pending'
      FOR UPDATE SKIP LOCKED
    ), decided AS (
      SELECT d.id, active.token_ciphertext AS active_ciphertext, fallback.token_ciphertext AS fallback_ciphertext,
             CASE WHEN NOT e.enabled AND NOT d.is_test THEN ${ENDPOINT_DISABLED}
                  WHEN e.protocol = 'current' AND active.id IS NULL THEN ${NO_ACTIVE_SECRET} END AS refusal
      FROM picked
      JOIN webhook_deliveries d ON d.id = picked.id
      JOIN webhook_endpoints e ON e.id = d.endpoint_id
      LEFT JOIN webhook_secrets active ON e.protocol = 'current' AND active.status = 'active'
        AND (active.partner_id = e.partner_id OR active.distributor_id = e.distributor_id)
      LEFT JOIN webhook_secrets fallback ON e.protocol = 'current' AND fallback.status = 'fallback'
        AND (fallback.partner_id = e.partner_id OR fallback.distributor_id = e.distributor_id)
    ), claimed AS (
      UPDATE webhook_deliveries d
      SET status = (CASE WHEN x.refusal IS NULL THEN 'delivering' ELSE 'failed' END)::webhook_delivery_status,
          attempt_count = d.attempt_count + (CASE WHEN x.refusal IS NULL THEN 1 ELSE 0 END),
          claim_token = CASE WHEN x.refusal IS NULL THEN gen_random_uuid() END,
          lease_until = CASE WHEN x.refusal IS NULL THEN now() + make_interval(secs => ${leaseMs / 1000}::double precision) END,
          last_error = coalesce(x.refusal, d.last_error),
          updated_at = now()
      FROM decided x WHERE d.id = x.id
      RETURNING d.id, d.claim_token, d.endpoint_id, d.idempotency_token, d.body, d.event_type, d.attempt_count, d.max_attempts, d.fallback_used,
                d.is_test, x.refusal, x.active_ciphertext, x.fallback_ciphertext
    ), attempts AS (
      INSERT INTO webhook_attempts (delivery_id, started_at) SELECT id, now() FROM claimed WHERE refusal IS NULL
      RETURNING id, delivery_id
    )
    SELECT c.id::text, c.claim_token::text AS "claimToken", c.endpoint_id::text AS "endpointId",
           c.idempotency_token::text AS "idempotencyToken", c.body, c.event_type AS "eventType",
           c.attempt_count AS "attemptCount", c.max_attempts AS "maxAttempts", c.fallback_used AS "fallbackUsed", c.is_test AS "isTest",
           c.refusal, a.id::text AS "attemptId", e.url, e.protocol::text AS protocol, e.signature_scheme::text AS "signatureScheme",
           e.secret_ciphertext AS "secretCiphertext",
           c.active_ciphertext AS "activeCiphertext", c.fallback_ciphertext AS "fallbackCiphertext"
    FROM claimed c JOIN webhook_endpoints e ON e.id = c.endpoint_id LEFT JOIN attempts a ON a.delivery_id = c.id`;
}

interface Exchange {
  statusCode?: number;
  durationMs: number;
  /** Undefined when the attempt succeeded. */
  error?: string;
  /** The answer was 2xx and signed, but not with the token the request was signed with. */
  signatureMismatch: boolean;
  /** How long the receiver asked to wait before the next attempt (Retry-After of a 429 or 503). */
  retryAfterMs?: number;
}

/** The receiver says the URL is gone for good: the endpoint is disabled at once. */
const GONE = 410;

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

/** `X-Service-Event` and `X-Service-Signature`, or the names a deployment set with WEBHOOK_LEGACY_HEADER_PREFIX. */
function legacyHeaders(eventType: string, signature: string): Record<string, string> {
  const prefix = config.webhookLegacyHeaderPrefix();
  return { [`${prefix}-Event`]: eventType, [`${prefix}-Signature`]: signature };
}

/**
 * One request to an endpoint that opted into Standard Webhooks: `webhook-id` (the idempotency
 * token), `webhook-timestamp` (now, in seconds) and `webhook-signature` with one signature per
 * token the organization has (the active one, then the fallback). Any 2xx is success.
 */
async function exchangeStandardWebhooks(delivery: ClaimedDelivery, tokens: SigningTokens & { active: string }): Promise<Exchange> {
  const timestamp = Math.floor(Date.now() / 1000);
  const signature = standardWebhookSignature(
    tokens.fallback ? [tokens.active, tokens.fallback] : [tokens.active],
    delivery.idempotencyToken,
    timestamp,
    delivery.body,
  );
  const outcome = await postWebhook(
    delivery.url,
    { "webhook-id": delivery.idempotencyToken, "webhook-timestamp": String(timestamp), "webhook-signature": signature },
    delivery.body,
    CURRENT_TIMEOUT_MS,
  );
  return { ...outcome, error: httpFailure(outcome.statusCode, outcome.error), signatureMismatch: false };
}

async function exchangeLegacy(delivery: ClaimedDelivery, secret: string): Promise<Exchange> {
  const outcome = await postWebhook(
    delivery.url,
    legacyHeaders(delivery.eventType, legacySignatureHeader(secret, delivery.body)),
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
 * Sends one started attempt and hands its outcome to the writer. On the current protocol with
 * X-Signature, an answer that fails only because its signature does not verify with the active
 * token is followed, once per delivery and only while a fallback secret exists, by one extra
 * request signed and verified with the fallback token (docs/webhooks.md, fallback secret); that
 * request does not count against maxAttempts. Standard Webhooks has no answer to verify, so no
 * such request.
 */
export async function performAttempt(db: Db, writer: ResultWriter, attempt: StartedAttempt): Promise<void> {
  const { delivery, signing } = attempt;
  const first =
    signing.protocol === "legacy"
      ? await exchangeLegacy(delivery, signing.secret)
      : delivery.signatureScheme === "standard-webhooks"
        ? await exchangeStandardWebhooks(delivery, signing.tokens)
        : await exchangeCurrent(delivery, signing.tokens.active);
  const fallbackToken = signing.protocol === "current" ? signing.tokens.fallback : undefined;
  if (first.signatureMismatch && fallbackToken && !delivery.fallbackUsed) {
    const fallbackAttemptId = await recordFirstAndStartFallback(db, attempt, first);
    if (!fallbackAttemptId) return;
    metrics().webhookAttempts.inc({ protocol: delivery.protocol, outcome: "fallback" });
    const second = await exchangeCurrent(delivery, fallbackToken);
    await writer.record(outcomeOf(attempt, fallbackAttemptId, second, second.error ? first.error : undefined));
    return;
  }
  await writer.record(outcomeOf(attempt, attempt.attemptId, first, first.error));
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

/** A request's result and where it moves the delivery. */
interface AttemptOutcome {
  delivery: ClaimedDelivery;
  attemptId: string;
  exchange: Exchange;
  status: "delivered" | "pending" | "failed";
  nextAttemptAt: Date | null;
  deliveryError: string | null;
}

/**
 * Delivered; failed when the receiver answered 410 Gone or the attempts are used up; else pending
 * again, due by the retry schedule or later when the receiver asked for it (Retry-After).
 */
function outcomeOf(attempt: StartedAttempt, attemptId: string, exchange: Exchange, deliveryError: string | undefined): AttemptOutcome {
  const { delivery } = attempt;
  const finished = delivery.attemptCount >= delivery.maxAttempts || exchange.statusCode === GONE;
  const status = deliveryError === undefined ? "delivered" : finished ? "failed" : "pending";
  if (status !== "delivered") {
    log.info("webhook attempt failed", { deliveryId: delivery.id, endpointId: delivery.endpointId, attempt: delivery.attemptCount, outcome: status, error: exchange.error });
  }
  return {
    delivery,
    attemptId,
    exchange,
    status,
    nextAttemptAt:
      status === "pending" ? new Date(Date.now() + nextAttemptDelayMs(delivery.attemptCount, delivery.maxAttempts, exchange.retryAfterMs)) : null,
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
        await writeOutcomes(this.db, batch.map((entry) => entry.outcome));
        for (const entry of batch) entry.resolve();
      } catch (error) {
        for (const entry of batch) entry.reject(error);
      }
    }
    this.writing = false;
  }
}

/** What one write learned about an endpoint from its outcomes, in the order they finished. */
interface EndpointHealthChange {
  /** A delivery succeeded: the run of failures starts again from zero. */
  reset: boolean;
  /** Failed deliveries since the last success in this write (or since the write began). */
  add: number;
  lastError: string;
  /** The receiver answered 410 Gone (to a delivery that is not a test). */
  gone: boolean;
}

/** The job that tells an endpoint's owner it started failing or was disabled (docs/webhooks.md, "Health and warnings"). */
export const ENDPOINT_HEALTH_JOB = "webhooks.endpoint-health";

function endpointHealthChanges(outcomes: AttemptOutcome[]): Array<[string, EndpointHealthChange]> {
  const health = new Map<string, EndpointHealthChange>();
  for (const outcome of outcomes) {
    if (outcome.delivery.isTest || outcome.status === "pending") continue;
    const entry = health.get(outcome.delivery.endpointId) ?? { reset: false, add: 0, lastError: "", gone: false };
    if (outcome.status === "delivered") Object.assign(entry, { reset: true, add: 0, gone: false });
    else {
      Object.assign(entry, { add: entry.add + 1, lastError: outcome.deliveryError ?? "" });
      if (outcome.exchange.statusCode === GONE) entry.gone = true;
    }
    health.set(outcome.delivery.endpointId, entry);
  }
  return [...health.entries()];
}

/**
 * Writes a batch of outcomes in one statement: the attempts, the deliveries (only while the
 * worker still holds each claim token) and each endpoint's health. An endpoint whose failures in
 * a row reach AUTO_DISABLE_AFTER_FAILURES, or whose receiver answered 410 Gone, is disabled; one
 * that starts failing (its first failed delivery since a success) or is disabled gets a health
 * notice job for its owner, queued in the same statement, so a crash can neither lose nor repeat it.
 */
async function writeOutcomes(db: Db, outcomes: AttemptOutcome[]): Promise<void> {
  const endpoints = endpointHealthChanges(outcomes);
  const failingPrefix = `Disabled after ${AUTO_DISABLE_AFTER_FAILURES} failed deliveries in a row; last error: `;
  const gonePrefix = "Disabled because the receiver answered 410 Gone: ";
  const changed = await db.$queryRaw<Array<{ id: string; failures: number; disabledKind: string | null; startedFailing: boolean }>>`
    WITH outcome AS (
      SELECT * FROM unnest(${outcomes.map((o) => o.attemptId)}::uuid[], ${outcomes.map((o) => o.delivery.id)}::uuid[],
                           ${outcomes.map((o) => o.delivery.claimToken)}::uuid[], ${outcomes.map((o) => o.exchange.statusCode ?? null)}::int[],
                           ${outcomes.map((o) => o.exchange.durationMs)}::int[], ${outcomes.map((o) => o.exchange.error ?? null)}::text[],
                           ${outcomes.map((o) => o.status)}::text[], ${outcomes.map((o) => o.nextAttemptAt)}::timestamptz[],
                           ${outcomes.map((o) => o.deliveryError)}::text[])
        AS r(attempt_id, delivery_id, claim_token, status_code, duration_ms, attempt_error, status, next_at, delivery_error)
    ), done AS (
      UPDATE webhook_attempts a SET finished_at = now(), status_code = o.status_code, duration_ms = o.duration_ms, error = o.attempt_error
      FROM outcome o WHERE a.id = o.attempt_id
    ), moved AS (
      UPDATE webhook_deliveries d
      SET status = o.status::webhook_delivery_status, lease_until = NULL, claim_token = NULL, updated_at = now(),
          next_attempt_at = coalesce(o.next_at, d.next_attempt_at), last_error = o.delivery_error,
          delivered_at = CASE WHEN o.status = 'delivered' THEN now() ELSE d.delivered_at END
      FROM outcome o WHERE d.id = o.delivery_id AND d.claim_token = o.claim_token
    ), health AS (
      SELECT * FROM unnest(${endpoints.map(([id]) => id)}::uuid[], ${endpoints.map(([, h]) => h.reset)}::boolean[],
                           ${endpoints.map(([, h]) => h.add)}::int[], ${endpoints.map(([, h]) => h.lastError)}::text[],
                           ${endpoints.map(([, h]) => h.gone)}::boolean[])
        AS h(endpoint_id, reset, add, last_error, gone)
    ), locked AS (
      -- the rows as they are once locked (FOR UPDATE waits for another writer and returns its
      -- version), so concurrent writers of one endpoint add up instead of overwriting each other
      SELECT e.id, e.enabled, e.consecutive_failures, e.failing_since FROM webhook_endpoints e
      WHERE e.id IN (SELECT endpoint_id FROM health) ORDER BY e.id FOR UPDATE
    ), counted AS (
      SELECT h.*, (CASE WHEN h.reset THEN 0 ELSE e.consecutive_failures END) + h.add AS failures,
             h.add > 0 AND e.enabled AND (h.reset OR e.failing_since IS NULL) AS starts_failing,
             CASE WHEN NOT e.enabled THEN NULL
                  WHEN h.gone THEN 'gone'
                  WHEN h.add > 0 AND (CASE WHEN h.reset THEN 0 ELSE e.consecutive_failures END) + h.add >= ${AUTO_DISABLE_AFTER_FAILURES}::int
                    THEN 'failing' END AS disable
      FROM health h JOIN locked e ON e.id = h.endpoint_id
    ), updated AS (
      UPDATE webhook_endpoints e
      SET consecutive_failures = c.failures,
          last_success_at = CASE WHEN c.reset THEN now() ELSE e.last_success_at END,
          failing_since = CASE WHEN c.failures = 0 THEN NULL WHEN c.starts_failing THEN now() ELSE e.failing_since END,
          enabled = e.enabled AND c.disable IS NULL,
          disabled_kind = coalesce(c.disable::webhook_disabled_kind, e.disabled_kind),
          disabled_reason = CASE WHEN c.disable = 'gone' THEN ${gonePrefix} || c.last_error
                                 WHEN c.disable = 'failing' THEN ${failingPrefix} || c.last_error ELSE e.disabled_reason END,
          disabled_at = CASE WHEN c.disable IS NOT NULL THEN now() ELSE e.disabled_at END
      FROM counted c WHERE e.id = c.endpoint_id
      RETURNING e.id, c.failures, c.disable, c.starts_failing, e.failing_since, e.disabled_at
    ), notices AS (
      INSERT INTO jobs (kind, payload, dedupe_key, updated_at)
      SELECT ${ENDPOINT_HEALTH_JOB}, jsonb_build_object('endpointId', n.id::text, 'change', n.change, 'at', n.at),
             'webhook-health:' || n.id::text || ':' || n.change || ':' || n.at, now()
      FROM (SELECT id, CASE WHEN disable IS NOT NULL THEN 'disabled' ELSE 'failing' END AS change,
                   to_char((CASE WHEN disable IS NOT NULL THEN disabled_at ELSE failing_since END) AT TIME ZONE 'UTC',
                           'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at
            FROM updated WHERE disable IS NOT NULL OR starts_failing) n
      ON CONFLICT (dedupe_key) DO NOTHING
    )
    SELECT id::text, failures, disable AS "disabledKind", starts_failing AS "startedFailing" FROM updated
    WHERE disable IS NOT NULL OR starts_failing`;
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
  for (const { delivery, status } of outcomes) counter.inc({ protocol: delivery.protocol, outcome: status === "pending" ? "retry" : status });
}

/**
 * Re-drives work a dead worker left behind: deliveries whose lease ran out get their open
 * attempt recorded as interrupted, then go back to pending, or to failed when that attempt was
 * their last. Returns how many deliveries it recovered.
 */
export async function sweepDeliveries(db: Db): Promise<number> {
  const rows = await db.$queryRaw<Array<{ id: string; protocol: "current" | "legacy"; interrupted: number }>>`
    WITH expired AS (
      SELECT id FROM webhook_deliveries WHERE status = 'delivering' AND lease_until < now() FOR UPDATE SKIP LOCKED
    ), closed AS (
      UPDATE webhook_attempts a SET finished_at = now(), error = ${INTERRUPTED}
      FROM expired WHERE a.delivery_id = expired.id AND a.finished_at IS NULL
      RETURNING a.delivery_id
    )
    UPDATE webhook_deliveries d
    SET status = CASE WHEN d.attempt_count >= d.max_attempts THEN 'failed'::webhook_delivery_status ELSE 'pending'::webhook_delivery_status END,
        next_attempt_at = now(), lease_until = NULL, claim_token = NULL, last_error = ${INTERRUPTED}, updated_at = now()
    FROM expired WHERE d.id = expired.id
    RETURNING d.id::text, (SELECT e.protocol::text FROM webhook_endpoints e WHERE e.id = d.endpoint_id) AS protocol,
              (SELECT count(*)::int FROM closed WHERE closed.delivery_id = d.id) AS interrupted`;
  for (const row of rows) if (row.interrupted > 0) metrics().webhookAttempts.inc({ protocol: row.protocol, outcome: "interrupted" }, row.interrupted);
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
  const { claimed, started: attempts } = await claimAttempts(db, { limit });
  const writer = new ResultWriter(db);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, attempts.length) }, async () => {
      while (next < attempts.length) await performAttempt(db, writer, attempts[next++]!);
    }),
  );
  return claimed;
}
