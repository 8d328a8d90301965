import type { Queryable } from "../jobs/queue";

/** The WHATWG (HTML) e-mail grammar, applied to the lower-cased address. */
const EMAIL_PATTERN =
  /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;
const MAX_EMAIL_LENGTH = 254;
/** Addresses or domains per lookup statement: bounded batches, never one round trip per address. */
export const LOOKUP_BATCH = 2_000;

/** The index's form of an address (trimmed, lower-case), or undefined when it is not one. */
export function normalizeEmail(raw: string): string | undefined {
  const email = raw.trim().toLowerCase();
  return email.length <= MAX_EMAIL_LENGTH && EMAIL_PATTERN.test(email) ? email : undefined;
}

export function domainOf(email: string): string {
  return email.slice(email.lastIndexOf("@") + 1);
}

export interface Exposure {
  email: string;
  breachId: string;
}

/**
 * Adds exposures to the index; rows already there are skipped (idempotent). Rows are sorted
 * first, so concurrent batches lock index entries in the same order. Returns how many were new.
 */
export async function insertExposures(db: Queryable, rows: Exposure[]): Promise<number> {
  if (rows.length === 0) return 0;
  const sorted = [...rows].sort((a, b) => (a.email < b.email ? -1 : a.email > b.email ? 1 : a.breachId < b.breachId ? -1 : 1));
  const emails = sorted.map((row) => row.email);
  return db.$executeRaw`
    INSERT INTO breach_exposures (email, domain, breach_id)
    SELECT e.email, substr(e.email, strpos(e.email, '@') + 1), e.breach_id
    FROM unnest(${emails}::text[], ${sorted.map((row) => row.breachId)}::uuid[]) AS e(email, breach_id)
    ON CONFLICT DO NOTHING`;
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += size) out.push(items.slice(start, start + size));
  return out;
}

/** Every exposure of the given (normalized) addresses, in batches of LOOKUP_BATCH addresses. Retired breaches are left out. */
export async function exposuresOfEmails(db: Queryable, emails: readonly string[]): Promise<Exposure[]> {
  const found: Exposure[] = [];
  for (const batch of chunks([...new Set(emails)], LOOKUP_BATCH)) {
    found.push(
      ...(await db.$queryRaw<Exposure[]>`
        SELECT e.email, e.breach_id::text AS "breachId"
        FROM breach_exposures e JOIN breaches b ON b.id = e.breach_id AND NOT b.is_retired
        WHERE e.email = ANY(${batch}::text[])`),
    );
  }
  return found;
}

/** Every exposed address at the given domains (domain-based e-mail discovery). Retired breaches are left out. */
export async function exposuresAtDomains(db: Queryable, domains: readonly string[]): Promise<Exposure[]> {
  const found: Exposure[] = [];
  for (const batch of chunks([...new Set(domains)], LOOKUP_BATCH)) {
    found.push(
      ...(await db.$queryRaw<Exposure[]>`
        SELECT e.email, e.breach_id::text AS "breachId"
        FROM breach_exposures e JOIN breaches b ON b.id = e.breach_id AND NOT b.is_retired
        WHERE e.domain = ANY(${batch}::text[])`),
    );
  }
  return found;
}
