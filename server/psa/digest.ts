import type { NoticeDigest } from "../notifications/quiet";

/**
 * A PSA connection's digest (docs/integrations.md, "PSA: digests"): with `digest` daily or
 * weekly, new tickets and the notes for mailboxes found later are sent once per slot, every day
 * (weekly: Mondays) from 07:00 UTC, instead of as findings are recorded. Tickets stay one per
 * customer and breach, with their exactly-once keys; a slot only decides when they are written.
 */
const DIGEST_HOUR_UTC = 7;

/** The day of the latest slot of this digest that has opened by `now` (YYYY-MM-DD). */
export function currentDigestSlot(digest: Exclude<NoticeDigest, "off">, now = new Date()): string {
  const slot = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), DIGEST_HOUR_UTC));
  if (slot.getTime() > now.getTime()) slot.setUTCDate(slot.getUTCDate() - 1);
  if (digest === "weekly") slot.setUTCDate(slot.getUTCDate() - ((slot.getUTCDay() + 6) % 7));
  return slot.toISOString().slice(0, 10);
}

/** Whether a run may write new tickets and notes now: always without a digest, else once per slot. */
export function digestSlotDue(connection: { digest: NoticeDigest; lastDigestSlot: string | null }, now = new Date()): boolean {
  return connection.digest === "off" || connection.lastDigestSlot !== currentDigestSlot(connection.digest, now);
}
