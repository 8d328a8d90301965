import type { Db } from "../db/client";
import { wakeJobWorkers } from "../jobs/wake";
import { log } from "../log";
import type { Exposure } from "../breaches/exposure-index/exposures";
import { recordFindingsOfCustomers } from "./scanner";
import { forEachConcurrently } from "../concurrently";
import { importsToMatch, markImportsMatched } from "../breaches/exposure-index/match-requests";

/** Customers written per transaction: a large import never holds one giant transaction. */
export const MATCH_PAGE_CUSTOMERS = 100;
/** Pages written side by side (each its own transaction, on its own customers). */
const MATCH_LANES = 4;

export interface MatchOutcome {
  /** Active customers whose monitored assets the new exposures concern. */
  customers: number;
  /** (customer, address, breach) matches found. */
  exposures: number;
  newBreaches: number;
  discoveredEmails: number;
  /** Customers matched but no longer active when their page was written. */
  skipped: number;
}

type CustomerExposure = Exposure & { customerId: string };

/**
 * The matching an import asked for (requestImportMatching): that import and every other one still
 * pending, matched together, so a customer exposed in several of them (a stealer-log file's
 * chunks) is written once; then they are marked matched. A run that fails leaves them pending,
 * so its retry, or the next run, matches them again (which adds nothing twice).
 */
export async function matchPendingImports(db: Db, importId: number): Promise<MatchOutcome> {
  const importIds = await importsToMatch(db, importId);
  const outcome = await matchImportsForActiveCustomers(db, importIds);
  await markImportsMatched(db, importIds);
  return outcome;
}

/**
 * Incremental matching of accounts imports (docs/breaches.md): the exposures they added
 * (breach_exposures.import_id) joined with the monitored e-mail addresses and monitored domains
 * of active customers. Only those customers are written to, as a scan would (recordFindings).
 */
export async function matchImportsForActiveCustomers(db: Db, importIds: readonly number[]): Promise<MatchOutcome> {
  const started = performance.now();
  if (importIds.length === 0) return recordMatches(db, []);
  // The imports' rows are found through the BRIN index on import_id (each import appended them;
  // the BETWEEN is what the index can answer, ANY picks the imports in that range); each branch
  // joins them with one kind of monitored asset.
  const matches = await db.$queryRaw<CustomerExposure[]>`
    WITH added AS NOT MATERIALIZED (
      SELECT e.domain, e.email, e.breach_id
      FROM breach_exposures e JOIN breaches b ON b.id = e.breach_id AND NOT b.is_retired
      WHERE e.import_id BETWEEN ${Math.min(...importIds)}::bigint AND ${Math.max(...importIds)}::bigint
        AND e.import_id = ANY(${importIds as number[]}::bigint[])
    )
    SELECT a.customer_id::text AS "customerId", x.email, x.breach_id::text AS "breachId"
    FROM added x
    JOIN monitored_assets a ON a.kind = 'email' AND a.domain = x.domain AND a.value = x.email AND a.active
    JOIN customers c ON c.id = a.customer_id AND c.status = 'active'
    UNION ALL
    SELECT a.customer_id::text, x.email, x.breach_id::text
    FROM added x
    JOIN monitored_assets a ON a.kind = 'domain' AND a.value = x.domain
    JOIN customers c ON c.id = a.customer_id AND c.status = 'active'`;
  const lookupMs = Math.round(performance.now() - started);
  const outcome = await recordMatches(db, matches);
  const writeMs = Math.round(performance.now() - started) - lookupMs;
  log[outcome.customers > 0 ? "info" : "debug"]("import matched against active customers", { importIds, ...outcome, lookupMs, writeMs });
  return outcome;
}

/**
 * Incremental matching of catalogue breaches: every exposure of these breaches in the index,
 * matched against the monitored e-mail addresses and monitored domains of active customers
 * (the assets are looked up in the index by its key, so the cost follows the monitored assets,
 * not the size of the breaches). For a catalogue sync that added breaches; retired ones are left out.
 */
export async function matchBreachesForActiveCustomers(db: Db, breachIds: readonly string[]): Promise<MatchOutcome> {
  const started = performance.now();
  const ids = [...new Set(breachIds)];
  if (ids.length === 0) return recordMatches(db, []);
  const matches = await db.$queryRaw<CustomerExposure[]>`
    SELECT a.customer_id::text AS "customerId", e.email, e.breach_id::text AS "breachId"
    FROM monitored_assets a
    JOIN customers c ON c.id = a.customer_id AND c.status = 'active'
    JOIN breach_exposures e ON e.domain = a.domain AND e.email = a.value AND e.breach_id = ANY(${ids}::uuid[])
    JOIN breaches b ON b.id = e.breach_id AND NOT b.is_retired
    WHERE a.kind = 'email' AND a.active
    UNION ALL
    SELECT a.customer_id::text, e.email, e.breach_id::text
    FROM monitored_assets a
    JOIN customers c ON c.id = a.customer_id AND c.status = 'active'
    JOIN breach_exposures e ON e.domain = a.value AND e.breach_id = ANY(${ids}::uuid[])
    JOIN breaches b ON b.id = e.breach_id AND NOT b.is_retired
    WHERE a.kind = 'domain'`;
  const lookupMs = Math.round(performance.now() - started);
  const outcome = await recordMatches(db, matches);
  const writeMs = Math.round(performance.now() - started) - lookupMs;
  log[outcome.customers > 0 ? "info" : "debug"]("breaches matched against active customers", {
    breaches: ids.length,
    ...outcome,
    lookupMs,
    writeMs,
  });
  return outcome;
}

/**
 * Writes the matches customer by customer, a page of customers per transaction: the page's
 * customers are locked (as a scan locks its customer) and those still active get their findings.
 * Matching the same exposures again writes nothing new (recordFindings), so a job that runs twice
 * or is retried after a crash announces nothing twice.
 */
async function recordMatches(db: Db, matches: readonly CustomerExposure[]): Promise<MatchOutcome> {
  const byCustomer = new Map<string, Exposure[]>();
  for (const { customerId, email, breachId } of matches) {
    const exposures = byCustomer.get(customerId) ?? [];
    exposures.push({ email, breachId });
    byCustomer.set(customerId, exposures);
  }
  const customerIds = [...byCustomer.keys()].sort();
  const outcome: MatchOutcome = {
    customers: customerIds.length,
    exposures: matches.length,
    newBreaches: 0,
    discoveredEmails: 0,
    skipped: 0,
  };
  const pages: string[][] = [];
  for (let start = 0; start < customerIds.length; start += MATCH_PAGE_CUSTOMERS)
    pages.push(customerIds.slice(start, start + MATCH_PAGE_CUSTOMERS));

  await forEachConcurrently(pages, MATCH_LANES, async (page) => {
    const written = await db.$transaction(
      async (tx) => {
        const active = await tx.$queryRaw<Array<{ id: string }>>`
            SELECT id::text FROM customers WHERE id = ANY(${page}::uuid[]) AND status = 'active' ORDER BY id FOR UPDATE`;
        const written = await recordFindingsOfCustomers(tx, new Map(active.map(({ id }) => [id, byCustomer.get(id)!])), { scan: false });
        return [...written.values()];
      },
      { timeout: 120_000, maxWait: 30_000 },
    );
    outcome.skipped += page.length - written.length;
    for (const findings of written) {
      outcome.newBreaches += findings.newBreaches;
      outcome.discoveredEmails += findings.discoveredEmails;
    }
    await wakeJobWorkers();
  });
  return outcome;
}
