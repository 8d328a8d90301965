import { Prisma, type Queryable } from "../db/client";
import type { NoticeDigest } from "../db/generated/enums";

export type { NoticeDigest };
export const NOTICE_DIGESTS = ["off", "daily", "weekly"] as const satisfies readonly NoticeDigest[];

/** The e-mail breach alerts' channel key in the ledger; other channels use a key of their own. */
export const EMAIL_ALERT_CHANNEL = "email";

/** One mailbox of a customer found in one catalogue breach: what a human channel may tell. */
export interface NoticeCandidate {
  customerId: string;
  email: string;
  /** The catalogue breach (breaches.id), not the breach instance. */
  breachId: string;
}

/**
 * The one filter of every human channel (docs/notifications.md, "Quiet by design"): of these
 * candidates, claims in the quiet ledger those not claimed on `channel` before, and not muted
 * (by the partner or the customer, mute not expired) or an inactive directory user's mailbox,
 * and returns the claimed ones to tell now. With a `digest` the claims are held for that summary
 * instead (takeHeldNotices) and nothing is returned. Call it in the transaction that sends or
 * queues the notification: the claim commits with it, and a concurrent claim of the same key
 * waits for it and then claims nothing. A muted or inactive candidate is not claimed.
 */
export async function claimNotices(
  tx: Queryable,
  channel: string,
  candidates: readonly NoticeCandidate[],
  { digest = "off" }: { digest?: NoticeDigest } = {},
): Promise<NoticeCandidate[]> {
  if (candidates.length === 0) return [];
  const held = digest !== "off";
  const claimed = await tx.$queryRaw<NoticeCandidate[]>`
    WITH candidate AS (
      SELECT DISTINCT c.customer_id, lower(c.email) AS email, c.breach_id
      FROM unnest(${candidates.map((c) => c.customerId)}::uuid[], ${candidates.map((c) => c.email)}::text[],
                  ${candidates.map((c) => c.breachId)}::uuid[]) AS c(customer_id, email, breach_id)
    )
    INSERT INTO notification_notices (channel, customer_id, email, breach_id, digest, held, told_at)
    SELECT ${channel}, c.customer_id, c.email, c.breach_id, ${digest}::notice_digest, ${held}, CASE WHEN ${held} THEN NULL ELSE now() END
    FROM candidate c
    WHERE ${audible(Prisma.raw("c"))}
    ORDER BY c.customer_id, c.email, c.breach_id
    ON CONFLICT DO NOTHING
    RETURNING customer_id::text AS "customerId", email, breach_id::text AS "breachId"`;
  return held ? [] : claimed;
}

/**
 * What `channel` holds for one customer's `digest`, taken: marked told and returned, except what
 * was muted or became an inactive user's meanwhile (released untold, still claimed). Call it in
 * the transaction that queues the summary.
 */
export async function takeHeldNotices(
  tx: Queryable,
  channel: string,
  customerId: string,
  digest: Exclude<NoticeDigest, "off">,
): Promise<NoticeCandidate[]> {
  return tx.$queryRaw<NoticeCandidate[]>`
    WITH taken AS (
      UPDATE notification_notices n SET held = false, told_at = CASE WHEN ${audible(Prisma.raw("n"))} THEN now() END
      WHERE n.channel = ${channel} AND n.customer_id = ${customerId}::uuid AND n.digest = ${digest}::notice_digest AND n.held
      RETURNING n.customer_id, n.email, n.breach_id, n.told_at
    )
    SELECT customer_id::text AS "customerId", email, breach_id::text AS "breachId" FROM taken
    WHERE told_at IS NOT NULL ORDER BY breach_id, email`;
}

/** The customers for whom `channel` holds notices for `digest`, in id order, a page at a time. */
export async function customersWithHeldNotices(
  db: Queryable,
  channel: string,
  digest: Exclude<NoticeDigest, "off">,
  { afterId = "00000000-0000-0000-0000-000000000000", limit = 1_000 }: { afterId?: string; limit?: number } = {},
): Promise<string[]> {
  const rows = await db.$queryRaw<Array<{ id: string }>>`
    SELECT DISTINCT customer_id::text AS id FROM notification_notices
    WHERE held AND digest = ${digest}::notice_digest AND channel = ${channel} AND customer_id > ${afterId}::uuid
    ORDER BY id LIMIT ${limit}`;
  return rows.map((row) => row.id);
}

/** Those of a customer's mailboxes a mute in force covers for this catalogue breach (channels that keep their own once-ledger, as PSA tickets do). */
export async function mutedMailboxes(db: Queryable, customerId: string, breachId: string, emails: readonly string[]): Promise<Set<string>> {
  if (emails.length === 0) return new Set();
  const rows = await db.$queryRaw<Array<{ email: string }>>`
    SELECT DISTINCT e.email FROM unnest(${emails.map((email) => email.toLowerCase())}::text[]) AS e(email)
    WHERE EXISTS (SELECT 1 FROM notification_mutes m
                  WHERE m.customer_id = ${customerId}::uuid AND (m.email IS NULL OR m.email = e.email)
                    AND (m.breach_id IS NULL OR m.breach_id = ${breachId}::uuid) AND (m.until IS NULL OR m.until > now()))`;
  return new Set(rows.map((row) => row.email));
}

/** Whether the row `n` (customer_id, email, breach_id) may be told now: no mute in force, not an inactive user's mailbox. */
function audible(n: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`
    NOT EXISTS (SELECT 1 FROM monitored_assets a
                WHERE a.customer_id = ${n}.customer_id AND a.kind = 'email' AND a.value = ${n}.email AND NOT a.active)
    AND NOT EXISTS (SELECT 1 FROM notification_mutes m
                    WHERE m.customer_id = ${n}.customer_id AND (m.email IS NULL OR m.email = ${n}.email)
                      AND (m.breach_id IS NULL OR m.breach_id = ${n}.breach_id) AND (m.until IS NULL OR m.until > now()))`;
}
