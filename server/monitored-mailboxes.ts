import type { Queryable } from "./db/client";

/**
 * Whether a customer's e-mail address is monitored now. A monitored asset is active unless it
 * is the mailbox of a directory user who was disabled, deleted or left the synced group
 * (docs/directory.md): such an address keeps its row and its history (breach instances), but it
 * is not scanned, produces no alert, ticket or report line, and leaves the threat score. Every
 * reader that turns findings into something a person sees asks this (or filters on
 * monitored_assets.active in its own SQL).
 */
export async function inactiveMailboxes(db: Queryable, customerId: string, emails?: readonly string[]): Promise<Set<string>> {
  const rows = emails
    ? await db.$queryRaw<Array<{ value: string }>>`
        SELECT value FROM monitored_assets
        WHERE customer_id = ${customerId}::uuid AND kind = 'email' AND NOT active AND value = ANY(${[...emails]}::text[])`
    : await db.$queryRaw<Array<{ value: string }>>`
        SELECT value FROM monitored_assets WHERE customer_id = ${customerId}::uuid AND kind = 'email' AND NOT active`;
  return new Set(rows.map((row) => row.value));
}

/** Whether this address of the customer belongs to a user who left (an inactive monitored asset). */
export async function isInactiveMailbox(db: Queryable, customerId: string, email: string): Promise<boolean> {
  return (await inactiveMailboxes(db, customerId, [email])).size > 0;
}

/**
 * A breach instance's addresses that still count: those of users who left are dropped. An
 * instance left with none (all its addresses left) is no longer shown as open or reported.
 */
export function countedEmails(emails: readonly string[], inactive: ReadonlySet<string>): string[] {
  return inactive.size === 0 ? [...emails] : emails.filter((email) => !inactive.has(email));
}
