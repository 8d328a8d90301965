import type { Queryable } from "../db/client";
import { countedEmails, inactiveMailboxes } from "../monitored-mailboxes";
import { mutedMailboxes } from "../notifications/quiet";

/**
 * THE filter of which mailboxes of a breach instance get a PSA ticket (or a line in one): every
 * mailbox but those of directory users who left (disabled, deleted, out of the group) and those a
 * mute in force covers (docs/notifications.md, "Quiet by design"). Once per mailbox and breach is
 * the ticket rows' own rule.
 */
export async function mailboxesToTicket(
  db: Queryable,
  instance: { customerId: string; breachId: string; emails: readonly string[] },
): Promise<string[]> {
  const { customerId, breachId, emails } = instance;
  if (emails.length === 0) return [];
  const muted = await mutedMailboxes(db, customerId, breachId, emails);
  return countedEmails(emails, await inactiveMailboxes(db, customerId, emails))
    .filter((email) => !muted.has(email.toLowerCase()))
    .sort();
}
