import type { Queryable } from "../db/client";
import { countedEmails, inactiveMailboxes } from "../monitored-mailboxes";

/**
 * THE filter of which mailboxes of a breach instance get a PSA ticket (or a line in one): for
 * now, every mailbox but those of directory users who left (disabled, deleted, out of the
 * group). Further rules (mutes, once-per-channel) belong here, so every ticket path obeys them.
 */
export async function mailboxesToTicket(db: Queryable, customerId: string, emails: readonly string[]): Promise<string[]> {
  if (emails.length === 0) return [];
  return countedEmails(emails, await inactiveMailboxes(db, customerId, emails)).sort();
}
