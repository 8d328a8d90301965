import { readRows } from "../../db/direct-read";
import type { Queryable } from "../../db/client";
import { domainOfEmail } from "../../email-address";
import { emailSha1Prefix } from "./range-prefixes";

/** Addresses or domains per lookup statement: bounded batches, never one round trip per address. */
export const LOOKUP_BATCH = 2_000;

export interface Exposure {
  email: string;
  breachId: string;
}

/** An exposure as a breach source finds it, with what lookups need to know of its breach. */
export interface FoundExposure extends Exposure {
  /** The breach is IsSensitive: breach/check and breach/retrieve show it only to the address's monitors (docs/breaches.md). */
  sensitive: boolean;
}

/**
 * Adds exposures to the index; rows already there are skipped (idempotent). Rows are sorted by
 * the key first, so concurrent writers lock index entries in the same order. Returns how many
 * were new. They carry breach/range's hash prefix at once (the imports' rows get it from a job).
 * (Large files go through the staged path of accounts-import.ts.)
 */
export async function insertExposures(db: Queryable, rows: Exposure[]): Promise<number> {
  if (rows.length === 0) return 0;
  const keyed = rows.map((row) => ({ ...row, domain: domainOfEmail(row.email) }));
  keyed.sort((a, b) => compare(a.domain, b.domain) || compare(a.email, b.email) || compare(a.breachId, b.breachId));
  return db.$executeRaw`
    INSERT INTO breach_exposures (domain, email, breach_id, email_sha1_prefix)
    SELECT * FROM unnest(${keyed.map((row) => row.domain)}::text[], ${keyed.map((row) => row.email)}::text[], ${keyed.map((row) => row.breachId)}::uuid[],
                         ${keyed.map((row) => emailSha1Prefix(row.email))}::int[])
    ON CONFLICT DO NOTHING`;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += size) out.push(items.slice(start, start + size));
  return out;
}

/** Every exposure of the given (normalized) addresses, in batches of LOOKUP_BATCH addresses. Retired breaches are left out. */
export async function exposuresOfEmails(db: Queryable, emails: readonly string[]): Promise<FoundExposure[]> {
  const found: FoundExposure[] = [];
  for (const batch of chunks([...new Set(emails)], LOOKUP_BATCH)) {
    found.push(
      ...(await readRows<FoundExposure>(
        db,
        `SELECT e.email, e.breach_id::text AS "breachId", b.is_sensitive AS sensitive
         FROM unnest($1::text[], $2::text[]) AS q(email, domain)
         JOIN breach_exposures e ON e.domain = q.domain AND e.email = q.email
         JOIN breaches b ON b.id = e.breach_id AND NOT b.is_retired`,
        [batch, batch.map(domainOfEmail)],
        { preparedAs: "exposures-of-emails" },
      )),
    );
  }
  return found;
}

/** Every exposed address at the given domains (domain-based e-mail discovery). Retired breaches are left out. */
export async function exposuresAtDomains(db: Queryable, domains: readonly string[]): Promise<FoundExposure[]> {
  const found: FoundExposure[] = [];
  for (const batch of chunks([...new Set(domains)], LOOKUP_BATCH)) {
    found.push(
      ...(await db.$queryRaw<FoundExposure[]>`
        SELECT e.email, e.breach_id::text AS "breachId", b.is_sensitive AS sensitive
        FROM breach_exposures e JOIN breaches b ON b.id = e.breach_id AND NOT b.is_retired
        WHERE e.domain = ANY(${batch}::text[])`),
    );
  }
  return found;
}
