import { Prisma, type Db } from "../../db/client";
import { indexScanRows } from "../../db/direct-read";
import { log } from "../../log";
import { decryptSecret } from "../../app-key";
import type { SigningTokens } from "../secrets";
import type { SignatureScheme } from "../endpoints";
import { decryptTarget, type ChannelTarget } from "../channels/targets";
import { ENDPOINT_DISABLED, NO_ACTIVE_SECRET } from "./failure-messages";
import { DELIVERY_LEASE_MS, PER_ENDPOINT_CONCURRENCY } from "./limits";

/**
 * The delivery engine: claims due deliveries (claim.ts), makes one attempt each (attempt.ts,
 * exchanges.ts), records the outcome (outcomes.ts); sweep.ts recovers expired leases.
 * A delivery moves pending -> delivering (claimed under a lease, with a fresh claim token) ->
 * delivered | failed, or back to pending for its next attempt. The claim is the record that an
 * attempt started: the claim token is the attempt's id, and its row is written once, with the
 * outcome, in the statement that moves the delivery on. A worker that dies mid-attempt leaves the
 * delivery `delivering` and its lease running out; the sweep then writes the attempt's row as
 * interrupted and hands the delivery back (or fails it when its attempts are used up). A late
 * result from a worker whose lease was taken over is refused by the claim token; its answer
 * still completes the attempt's row.
 */
export interface ClaimedDelivery {
  id: string;
  claimToken: string;
  endpointId: string;
  /** The delivery's idempotency token (`webhook-id` under Standard Webhooks). */
  idempotencyToken: string;
  body: string;
  eventType: string;
  /** When this attempt was claimed: its row's start. */
  claimedAt: Date;
  /** Attempts made in this round, this one included. */
  attemptCount: number;
  maxAttempts: number;
  fallbackUsed: boolean;
  isTest: boolean;
  url: string;
  /** `url` of a channel is only its masked form: the target is in `signing`. */
  protocol: "current" | "legacy" | "channel";
  signatureScheme: SignatureScheme;
}

/** A claimed delivery, ready to send. */
export interface StartedAttempt {
  delivery: ClaimedDelivery;
  /** The claim token: the id its attempt row gets. */
  attemptId: string;
  signing:
    | { protocol: "current"; tokens: SigningTokens & { active: string } }
    | { protocol: "legacy"; secret: string }
    | { protocol: "channel"; target: ChannelTarget };
}

interface ClaimRow extends ClaimedDelivery {
  refusal: string | null;
  secretCiphertext: string | null;
  activeCiphertext: string | null;
  fallbackCiphertext: string | null;
}

/**
 * Claims up to `limit` due deliveries in one statement: picks them (FOR UPDATE SKIP LOCKED, at
 * most `perEndpoint` in flight per endpoint counting those other workers hold, oldest due
 * first). Candidates are taken per endpoint (the endpoints with pending deliveries are walked
 * through the pending deliveries' (endpoint_id, ...) index, one descent each), so a backlog on one
 * endpoint, such as a recover of thousands, never holds back another endpoint's deliveries. It
 * takes each one that can be sent under a lease, and fails without a request those that cannot be
 * sent: the endpoint was disabled meanwhile (test deliveries excepted), or the organization has no
 * active signing secret (docs/webhooks.md).
 */
export async function claimAttempts(
  db: Db,
  {
    limit,
    perEndpoint = PER_ENDPOINT_CONCURRENCY,
    leaseMs = DELIVERY_LEASE_MS,
    answered = [],
  }: {
    limit: number;
    perEndpoint?: number;
    leaseMs?: number;
    /**
     * The caller's deliveries whose request has its answer but whose outcome is not written yet:
     * still `delivering`, but no longer a request in flight, so they do not count against their
     * endpoint's share.
     */
    answered?: readonly string[];
  },
): Promise<{ claimed: number; started: StartedAttempt[] }> {
  if (limit <= 0) return { claimed: 0, started: [] };
  // Plain index scans only (indexScanRows): a bitmap scan, the planner's choice while the table's
  // statistics lag behind a burst, revisits every dead index entry the status moves leave, which
  // under a large backlog made each claim far dearer (measured: docs/measures.md, "Choices in the
  // code"). Prepared with one generic plan: planning the claim anew cost several times running it.
  const claim = claimStatement({ limit, perEndpoint, leaseMs, answered });
  const rows = await indexScanRows<ClaimRow>(db, claim.text, claim.values, { preparedAs: "webhook-claim" });
  const started: StartedAttempt[] = [];
  for (const { refusal, secretCiphertext, activeCiphertext, fallbackCiphertext, ...delivery } of rows) {
    if (refusal !== null) {
      log.warn("webhook delivery failed without a request", { deliveryId: delivery.id, endpointId: delivery.endpointId, error: refusal });
      continue;
    }
    const signing: StartedAttempt["signing"] =
      delivery.protocol === "legacy"
        ? { protocol: "legacy", secret: decrypt(secretCiphertext!) }
        : delivery.protocol === "channel"
          ? { protocol: "channel", target: decryptTarget(secretCiphertext!) }
          : {
              protocol: "current",
              tokens: {
                active: decrypt(activeCiphertext!),
                fallback: fallbackCiphertext ? decrypt(fallbackCiphertext) : undefined,
              },
            };
    started.push({ delivery, attemptId: delivery.claimToken, signing });
  }
  return { claimed: rows.length, started };
}

/**
 * `owners`: the endpoints with pending deliveries (and a last row of NULL), one descent each
 * through the pending deliveries' index, however many each endpoint has.
 */
const ENDPOINTS_WITH_PENDING = `
    WITH RECURSIVE owners AS (
      (SELECT endpoint_id FROM webhook_deliveries WHERE status = 'pending' ORDER BY endpoint_id LIMIT 1)
      UNION ALL
      SELECT (SELECT d.endpoint_id FROM webhook_deliveries d
              WHERE d.status = 'pending' AND d.endpoint_id > owners.endpoint_id ORDER BY d.endpoint_id LIMIT 1)
      FROM owners WHERE owners.endpoint_id IS NOT NULL
    )`;

/**
 * Signing secrets decrypted, by ciphertext: one decryption per secret, not per delivery. A
 * rotated secret is a new ciphertext (a fresh IV each time), so an entry never goes stale; the
 * map is emptied when it reaches MAX_DECRYPTED_SECRETS.
 */
const decrypted = new Map<string, string>();
const MAX_DECRYPTED_SECRETS = 1_000;

function decrypt(ciphertext: string): string {
  let plaintext = decrypted.get(ciphertext);
  if (plaintext === undefined) {
    if (decrypted.size >= MAX_DECRYPTED_SECRETS) decrypted.clear();
    decrypted.set(ciphertext, (plaintext = decryptSecret(ciphertext)));
  }
  return plaintext;
}

/** The claim itself: one statement. */
function claimStatement({
  limit,
  perEndpoint,
  leaseMs,
  answered,
}: {
  limit: number;
  perEndpoint: number;
  leaseMs: number;
  answered: readonly string[];
}): Prisma.Sql {
  return Prisma.sql`
    ${Prisma.raw(ENDPOINTS_WITH_PENDING)}, busy AS (
      SELECT endpoint_id, count(*)::int AS n FROM webhook_deliveries
      WHERE status = 'delivering' AND NOT (id = ANY(${answered}::uuid[])) GROUP BY endpoint_id
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
      -- each by its primary key (status compared as text so that the plan cannot scan every
      -- pending delivery instead: a generic plan made while the table was small would)
      SELECT d.id FROM webhook_deliveries d
      WHERE d.id IN (SELECT due.id FROM due ORDER BY due.next_attempt_at, due.sequence LIMIT ${limit}::int)
        AND d.status::text = 'pending'
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
      RETURNING d.id, d.claim_token, d.updated_at, d.endpoint_id, d.idempotency_token, d.body, d.event_type, d.attempt_count, d.max_attempts,
                d.fallback_used, d.is_test, x.refusal, x.active_ciphertext, x.fallback_ciphertext
    )
    SELECT c.id::text, c.claim_token::text AS "claimToken", c.updated_at AS "claimedAt", c.endpoint_id::text AS "endpointId",
           c.idempotency_token::text AS "idempotencyToken", c.body, c.event_type AS "eventType",
           c.attempt_count AS "attemptCount", c.max_attempts AS "maxAttempts", c.fallback_used AS "fallbackUsed", c.is_test AS "isTest",
           c.refusal, e.url, e.protocol::text AS protocol, e.signature_scheme::text AS "signatureScheme",
           e.secret_ciphertext AS "secretCiphertext",
           c.active_ciphertext AS "activeCiphertext", c.fallback_ciphertext AS "fallbackCiphertext"
    FROM claimed c JOIN webhook_endpoints e ON e.id = c.endpoint_id`;
}

/** When the next delivery is due, or the next lease runs out; undefined when nothing waits. */
export async function nextDeliveryDueAt(db: Db): Promise<Date | undefined> {
  const rows = await indexScanRows<{ at: Date | null }>(
    db,
    `${ENDPOINTS_WITH_PENDING}
     SELECT least(
       (SELECT min((SELECT d.next_attempt_at FROM webhook_deliveries d
                    WHERE d.status = 'pending' AND d.endpoint_id = owners.endpoint_id ORDER BY d.next_attempt_at, d.sequence LIMIT 1))
        FROM owners WHERE owners.endpoint_id IS NOT NULL),
       (SELECT min(lease_until) FROM webhook_deliveries WHERE status = 'delivering'),
       -- an unrouted event is due at once: the first in its index's order will do (routing.ts)
       (SELECT created_at FROM outbox_events WHERE routed_at IS NULL ORDER BY routed_at, sequence LIMIT 1)) AS at`,
    [],
    { preparedAs: "webhook-next-due" },
  );
  const at = rows[0]?.at;
  return at ? new Date(at) : undefined;
}
