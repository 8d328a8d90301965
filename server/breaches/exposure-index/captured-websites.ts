import type { Queryable } from "../../db/client";
import { domainOfEmail } from "../../email-address";

/** Mailboxes found in one stealer-log catalogue breach. */
export interface StealerLogFinding {
  breachId: string;
  emails: readonly string[];
}

/**
 * The websites whose sign-ins stealer logs captured for these mailboxes (stealer_log_exposures):
 * by catalogue breach id, then by address, each list sorted. Mailboxes without a captured
 * website are absent. Deciding who may see them is the caller's (server/findings/disclosure.ts).
 */
export async function capturedWebsites(db: Queryable, findings: readonly StealerLogFinding[]): Promise<Map<string, Map<string, string[]>>> {
  const pairs = findings.flatMap(({ breachId, emails }) => emails.map((email) => ({ breachId, email })));
  const byBreach = new Map<string, Map<string, string[]>>();
  if (pairs.length === 0) return byBreach;
  const rows = await db.$queryRaw<Array<{ breachId: string; email: string; websites: string[] }>>`
    SELECT q.breach_id::text AS "breachId", q.email,
           array_agg(DISTINCT s.website_domain ORDER BY s.website_domain) AS websites
    FROM unnest(${pairs.map((pair) => pair.breachId)}::uuid[], ${pairs.map((pair) => pair.email)}::text[],
                ${pairs.map((pair) => domainOfEmail(pair.email))}::text[]) AS q(breach_id, email, domain)
    JOIN stealer_log_exposures s ON s.domain = q.domain AND s.email = q.email AND s.breach_id = q.breach_id
    GROUP BY q.breach_id, q.email`;
  for (const row of rows) {
    const byEmail = byBreach.get(row.breachId) ?? new Map<string, string[]>();
    byEmail.set(row.email, row.websites);
    byBreach.set(row.breachId, byEmail);
  }
  return byBreach;
}

/** By catalogue breach id, then by address: what capturedWebsites answers. */
export type CapturedWebsites = ReadonlyMap<string, ReadonlyMap<string, readonly string[]>>;

/** Every website of one breach's mailboxes (of those in `emails`, when given), once each, sorted. */
export function websitesOfBreach(byEmail: ReadonlyMap<string, readonly string[]> | undefined, emails?: readonly string[]): string[] {
  const lists = emails ? emails.map((email) => byEmail?.get(email) ?? []) : [...(byEmail?.values() ?? [])];
  return [...new Set(lists.flat())].sort();
}
