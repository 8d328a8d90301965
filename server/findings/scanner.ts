import { recountCustomerFigures } from "../customers/figures";
import type { Db, Queryable } from "../db/client";
import type { DomainPolicy } from "../db/generated/enums";
import {
  gateCandidates,
  partitionAddresses,
  partitionExposures,
  verificationGatedBreachIds,
  withholdExposures,
  type Disclosure,
} from "./disclosure";
import { customerRef, recordEvents, type BreachSummary } from "../events/outbox";
import { wakeJobWorkers } from "../jobs/wake";
import { log } from "../log";
import { metrics } from "../metrics/registry";
import { queueBreachAlerts, type AlertFinding } from "../notifications/breach-alerts";
import { domainOfEmail } from "../email-address";
import type { Exposure } from "../breaches/exposure-index/exposures";
import type { ScanReason } from "../customers/scan-requests";
import { configuredBreachSource } from "../breaches/exposure-index/sources/configured";
import type { BreachSource } from "../breaches/exposure-index/sources/source";
import { refreshThreatScores } from "../customers/threat-score";
import { forEachConcurrently } from "../concurrently";
import { requestPartnerPsaSync } from "./psa-requests";
import { capturedWebsites, websitesOfBreach, type CapturedWebsites } from "../breaches/exposure-index/captured-websites";

export type ScanOutcome =
  | { customerId: string; scanned: false; skipped: "not-found" | "not-monitored" | "prospect-already-scanned" }
  | { customerId: string; scanned: true; discoveredEmails: number; newBreaches: number; threatScore: number };

/**
 * Whether a customer in this state is scanned for this reason: active customers always;
 * prospects once (their initial scan), never daily; inactive and dormant never.
 */
function skipReason(customer: { status: string; firstScannedAt: Date | null }, reason: ScanReason) {
  if (customer.status === "active") return undefined;
  if (customer.status === "prospect" && reason !== "daily" && !customer.firstScannedAt) return undefined;
  return customer.status === "prospect" ? ("prospect-already-scanned" as const) : ("not-monitored" as const);
}

/**
 * Scans one customer: discovers the exposed addresses at its monitored domains (they become
 * monitored e-mails with source "discovered", announced with customer.asset.added), looks up
 * every monitored address, and records one breach instance per (customer, breach). Instances
 * that are new are announced in one customer.breach.found event (and one breach alert e-mail);
 * instances that gain addresses keep their id and resolved flag. Lookups go to the breach source
 * in batches before the transaction; the changes, events, alert and new threat score commit together.
 */
export async function scanCustomer(
  db: Db,
  customerId: string,
  reason: ScanReason,
  source: BreachSource = configuredBreachSource(),
): Promise<ScanOutcome> {
  const startedAt = performance.now();
  let result: "scanned" | "skipped" | "failed" = "failed";
  try {
    const outcome = await scan(db, customerId, reason, source);
    result = outcome.scanned ? "scanned" : "skipped";
    return outcome;
  } finally {
    metrics().scanDuration.observe({ reason, result }, (performance.now() - startedAt) / 1000);
  }
}

async function scan(db: Db, customerId: string, reason: ScanReason, source: BreachSource): Promise<ScanOutcome> {
  const customer = await db.customer.findUnique({
    where: { id: customerId },
    select: { status: true, firstScannedAt: true, assets: { where: { active: true }, select: { kind: true, value: true } } },
  });
  if (!customer) return { customerId, scanned: false, skipped: "not-found" };
  const skipped = skipReason(customer, reason);
  if (skipped) return { customerId, scanned: false, skipped };

  const domains = customer.assets.filter((asset) => asset.kind === "domain").map((asset) => asset.value);
  const domainSet = new Set(domains);
  // Addresses at a monitored domain are all found by the domain lookup.
  const otherEmails = customer.assets
    .filter((asset) => asset.kind === "email" && !domainSet.has(domainOfEmail(asset.value)))
    .map((asset) => asset.value);
  const exposures = [...(await source.exposuresAtDomains(db, domains)), ...(await source.exposuresOfEmails(db, otherEmails))];
  if (source.stealerLogExposuresAtDomains && domains.length > 0) {
    // Asked only for domains verified for the customer: stealer logs are shown for nothing else.
    const verified = await db.customerDomain.findMany({
      where: { customerId, status: "verified", domain: { in: domains } },
      select: { domain: true },
    });
    exposures.push(
      ...(await source.stealerLogExposuresAtDomains(
        db,
        verified.map((row) => row.domain),
      )),
    );
  }

  const outcome = await db.$transaction(
    async (tx) => {
      // One scan of a customer at a time: a second one waits here and then sees the first's rows.
      const locked = await tx.$queryRaw<Array<{ status: string; first_scanned_at: Date | null }>>`
        SELECT status::text, first_scanned_at FROM customers WHERE id = ${customerId}::uuid FOR UPDATE`;
      const current = locked[0];
      if (!current) return { customerId, scanned: false as const, skipped: "not-found" as const };
      const skippedNow = skipReason({ status: current.status, firstScannedAt: current.first_scanned_at }, reason);
      if (skippedNow) return { customerId, scanned: false as const, skipped: skippedNow };
      return { customerId, scanned: true as const, ...(await recordFindings(tx, customerId, exposures, { scan: true })) };
    },
    { timeout: 120_000, maxWait: 30_000 },
  );
  if (outcome.scanned) {
    await wakeJobWorkers();
    const changed = outcome.newBreaches > 0 || outcome.discoveredEmails > 0;
    log[changed ? "info" : "debug"]("customer scanned", { ...outcome, reason, source: source.name });
  }
  return outcome;
}

export interface Findings {
  discoveredEmails: number;
  newBreaches: number;
  threatScore: number;
}

/**
 * Writes what exposures mean for one customer, in the caller's transaction, which holds the
 * customer's row lock. What the customer may not see yet (server/findings/disclosure.ts; addresses
 * listed past the partner's lookup budget included) is only kept in withheld_exposures. Otherwise: exposed addresses at a monitored domain become discovered e-mails
 * (customer.asset.added), exposures of monitored addresses become breach instances (new ones in
 * one customer.breach.found event; every newly recorded mailbox of a breach through the quiet
 * ledger into at most one breach alert), and the threat score is recomputed.
 * Exposures of addresses the customer does not monitor are ignored; exposures already recorded
 * add nothing (the instance key is unique per customer and breach), so writing the same
 * exposures twice changes nothing. A scan passes every exposure of the customer and stamps its
 * scan times (`scan: true`); incremental matching passes only new exposures (new-exposures.ts).
 */
export async function recordFindings(
  tx: Queryable,
  customerId: string,
  exposures: readonly Exposure[],
  { scan }: { scan: boolean },
): Promise<Findings> {
  return (await recordFindingsOfCustomers(tx, new Map([[customerId, exposures]]), { scan })).get(customerId)!;
}

/**
 * recordFindings for many customers at once (a page of incremental matching): each step is one
 * statement for all of them, so the cost per customer is not a dozen round trips (measured:
 * docs/measures.md, "Choices in the code"). Each customer gets exactly what recordFindings
 * alone would write; events go into the outbox in the map's order, each customer's
 * customer.asset.added before its customer.breach.found. The caller's transaction holds every
 * one of these customers' row locks.
 */
export async function recordFindingsOfCustomers(
  tx: Queryable,
  exposuresByCustomer: ReadonlyMap<string, readonly Exposure[]>,
  { scan }: { scan: boolean },
): Promise<Map<string, Findings>> {
  const customerIds = [...exposuresByCustomer.keys()];
  if (customerIds.length === 0) return new Map();
  // Raw SQL: this runs for every customer of every scan and match, and Prisma's model queries cost
  // more CPU than a raw one (measured: docs/measures.md, "Choices in the code").
  const rows = await tx.$queryRaw<
    Array<{
      id: string;
      partnerId: string;
      companyName: string;
      reference: string;
      domains: string[];
      emails: string[];
      inactiveEmails: string[];
      withheldEmails: string[];
      policy: DomainPolicy;
      verifiedDomains: string[];
      contestedDomains: string[];
    }>
  >`
    SELECT c.id::text, c.partner_id::text AS "partnerId", c.company_name AS "companyName", c.reference,
           ARRAY(SELECT a.value FROM monitored_assets a WHERE a.customer_id = c.id AND a.kind = 'domain') AS domains,
           ARRAY(SELECT a.value FROM monitored_assets a WHERE a.customer_id = c.id AND a.kind = 'email' AND a.active) AS emails,
           ARRAY(SELECT a.value FROM monitored_assets a WHERE a.customer_id = c.id AND a.kind = 'email' AND NOT a.active) AS "inactiveEmails",
           ARRAY(SELECT a.value FROM withheld_addresses w JOIN monitored_assets a ON a.id = w.asset_id
                 WHERE w.customer_id = c.id) AS "withheldEmails",
           d.domain_policy::text AS policy,
           ARRAY(SELECT cd.domain FROM customer_domains cd WHERE cd.customer_id = c.id AND cd.status = 'verified') AS "verifiedDomains",
           CASE WHEN d.domain_policy = 'trusted' THEN ARRAY(
             SELECT a.value FROM monitored_assets a WHERE a.customer_id = c.id AND a.kind = 'domain' AND EXISTS (
               SELECT 1 FROM monitored_assets o JOIN customers oc ON oc.id = o.customer_id JOIN partners op ON op.id = oc.partner_id
               WHERE o.kind = 'domain' AND o.value = a.value AND oc.status <> 'inactive' AND op.distributor_id <> d.id))
           ELSE ARRAY[]::text[] END AS "contestedDomains"
    FROM customers c JOIN partners p ON p.id = c.partner_id JOIN distributors d ON d.id = p.distributor_id
    WHERE c.id = ANY(${customerIds}::uuid[])`;
  const found = new Map(rows.map((row) => [row.id, row]));
  const customers = customerIds.map((id) => {
    const row = found.get(id);
    if (!row) throw new Error(`customer ${id} not found`);
    const exposures = exposuresByCustomer.get(id)!;
    const disclosure: Disclosure = {
      policy: row.policy,
      verifiedDomains: new Set(row.verifiedDomains),
      contestedDomains: new Set(row.contestedDomains),
    };
    const addresses = partitionAddresses(
      disclosure,
      { domains: new Set(row.domains), emails: row.emails, inactiveEmails: row.inactiveEmails, withheldListed: row.withheldEmails },
      exposures,
    );
    return { ...row, exposures, disclosure, addresses };
  });

  const addedAssets = await addDiscoveredEmails(
    tx,
    customers.map((customer) => ({ customerId: customer.id, emails: customer.addresses.discovered })),
  );
  for (const customer of customers) for (const asset of addedAssets.get(customer.id) ?? []) customer.addresses.monitored.add(asset.value);

  // Sensitive and stealer-log breaches of addresses at a domain not verified for the customer are withheld too.
  const gated = await verificationGatedBreachIds(
    tx,
    customers.flatMap((customer) => gateCandidates(customer.disclosure, customer.addresses.monitored, customer.exposures)),
  );
  const partitions = customers.map((customer) => partitionExposures(customer.disclosure, customer.addresses, gated, customer.exposures));
  await withholdExposures(
    tx,
    customers.flatMap((customer, i) =>
      partitions[i]!.withheld.map(({ email, breachId }) => ({ customerId: customer.id, email, breachId })),
    ),
  );

  const { instances, websites } = await upsertInstances(
    tx,
    customers.map((customer, i) => ({ customerId: customer.id, emailsByBreach: partitions[i]!.emailsByBreach })),
  );
  const noInstances = { newInstances: [], recorded: [] };
  const events: Array<Parameters<typeof recordEvents>[1][number]> = [];
  const foundEventAt = new Map<string, number>();
  for (const customer of customers) {
    const assets = addedAssets.get(customer.id) ?? [];
    if (assets.length > 0) {
      events.push({
        type: "customer.asset.added",
        partnerId: customer.partnerId,
        customerId: customer.id,
        data: {
          customer: customerRef(customer),
          assets: assets.map((asset) => ({ uuid: asset.id, type: "email" as const, value: asset.value })),
        },
      });
    }
    const { newInstances } = instances.get(customer.id) ?? noInstances;
    if (newInstances.length > 0) {
      foundEventAt.set(customer.id, events.length);
      events.push({
        type: "customer.breach.found",
        partnerId: customer.partnerId,
        customerId: customer.id,
        data: { customer: customerRef(customer), breaches: newInstances },
      });
    }
  }
  const eventIds = await recordEvents(tx, events);
  const eventIdOf = (customerId: string) => {
    const at = foundEventAt.get(customerId);
    return at === undefined ? undefined : eventIds[at];
  };
  // New instances and addresses new to an instance are the partner's PSA's to ticket (server/psa/).
  await requestPartnerPsaSync(tx, [
    ...new Set(
      customers.filter((customer) => (instances.get(customer.id)?.recorded.length ?? 0) > 0).map((customer) => customer.partnerId),
    ),
  ]);
  await queueBreachAlerts(
    tx,
    customers.map((customer) => ({
      customerId: customer.id,
      eventId: eventIdOf(customer.id),
      findings: (instances.get(customer.id) ?? noInstances).recorded,
      websites,
    })),
  );

  if (scan) {
    await tx.$executeRaw`
      UPDATE customers SET last_scanned_at = now(), first_scanned_at = coalesce(first_scanned_at, now()), updated_at = now()
      WHERE id = ANY(${customerIds}::uuid[])`;
  }
  const changed = customers
    .filter((customer) => (addedAssets.get(customer.id)?.length ?? 0) > 0 || (instances.get(customer.id)?.newInstances.length ?? 0) > 0)
    .map((customer) => customer.id);
  if (changed.length > 0) await recountCustomerFigures(tx, changed);
  const scores = await refreshThreatScores(tx, customerIds);
  return new Map(
    customerIds.map((id) => [
      id,
      {
        discoveredEmails: addedAssets.get(id)?.length ?? 0,
        newBreaches: instances.get(id)?.newInstances.length ?? 0,
        threatScore: scores.get(id)!,
      },
    ]),
  );
}

/** Adds the discovered addresses as monitored e-mails; returns the rows added, by customer, in address order. */
async function addDiscoveredEmails(
  tx: Queryable,
  discovered: ReadonlyArray<{ customerId: string; emails: readonly string[] }>,
): Promise<Map<string, Array<{ id: string; value: string }>>> {
  const added = new Map<string, Array<{ id: string; value: string }>>();
  const pairs = discovered.flatMap(({ customerId, emails }) => [...emails].sort().map((value) => ({ customerId, value })));
  if (pairs.length === 0) return added;
  const rows = await tx.$queryRaw<Array<{ customerId: string; id: string; value: string }>>`
    INSERT INTO monitored_assets (customer_id, kind, value, domain, source)
    SELECT e.customer_id, 'email', e.value, substr(e.value, strpos(e.value, '@') + 1), 'discovered'
    FROM unnest(${pairs.map((pair) => pair.customerId)}::uuid[], ${pairs.map((pair) => pair.value)}::text[]) WITH ORDINALITY AS e(customer_id, value, n)
    ORDER BY e.n
    ON CONFLICT (customer_id, kind, value) DO NOTHING
    RETURNING customer_id::text AS "customerId", id::text, value`;
  for (const { customerId, id, value } of rows) added.set(customerId, [...(added.get(customerId) ?? []), { id, value }]);
  for (const list of added.values()) list.sort((a, b) => (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
  return added;
}

interface RecordedInstances {
  newInstances: BreachSummary[];
  recorded: AlertFinding[];
}

/**
 * Inserts the instances that are new and adds newly exposed addresses to existing ones (their
 * id and resolved flag stay), for each customer. Retired catalogue breaches are left out. Returns,
 * by customer, the new ones as breach summaries (the events' {uuid, name, emails}, and
 * websiteDomains for stealer logs), ordered by breach name, and every (breach, addresses) newly
 * recorded, new instances' and those added to known ones (the alert's); and the websites captured
 * for those of stealer logs (by breach and address, whoever's).
 */
async function upsertInstances(
  tx: Queryable,
  found: ReadonlyArray<{ customerId: string; emailsByBreach: Map<string, Set<string>> }>,
): Promise<{ instances: Map<string, RecordedInstances>; websites: CapturedWebsites }> {
  const instances = new Map<string, RecordedInstances>();
  const entries = found.flatMap(({ customerId, emailsByBreach }) =>
    [...emailsByBreach].map(([breachId, emails]) => ({ customerId, breachId, emails })),
  );
  if (entries.length === 0) return { instances, websites: new Map() };
  // unnest cannot carry an array per row, so the addresses travel as JSON arrays.
  const emailLists = entries.map((entry) => JSON.stringify([...entry.emails].sort()));
  // `earlier` reads the statement's snapshot: the instances' addresses before the upsert.
  const rows = await tx.$queryRaw<
    Array<{
      id: string;
      customerId: string;
      name: string;
      breachId: string;
      emails: string[];
      added: string[];
      inserted: boolean;
      isStealerLog: boolean;
    }>
  >`
    WITH found AS (
      SELECT f.customer_id, f.breach_id, ARRAY(SELECT jsonb_array_elements_text(f.emails::jsonb)) AS emails
      FROM unnest(${entries.map((entry) => entry.customerId)}::uuid[], ${entries.map((entry) => entry.breachId)}::uuid[],
                  ${emailLists}::text[]) AS f(customer_id, breach_id, emails)
      JOIN breaches b ON b.id = f.breach_id AND NOT b.is_retired
    ), earlier AS (
      SELECT cb.customer_id, cb.breach_id, cb.emails FROM customer_breaches cb
      JOIN found f ON f.customer_id = cb.customer_id AND f.breach_id = cb.breach_id
    ), upserted AS (
      INSERT INTO customer_breaches (customer_id, breach_id, emails, updated_at)
      SELECT customer_id, breach_id, emails, now() FROM found
      ON CONFLICT (customer_id, breach_id) DO UPDATE
        SET emails = ARRAY(SELECT DISTINCT e FROM unnest(customer_breaches.emails || EXCLUDED.emails) AS e ORDER BY e),
            updated_at = now()
        WHERE NOT (EXCLUDED.emails <@ customer_breaches.emails)
      RETURNING id, customer_id, breach_id, emails, (xmax = 0) AS inserted
    )
    SELECT u.id::text, u.customer_id::text AS "customerId", b.name, u.breach_id::text AS "breachId", u.emails, u.inserted,
           b.is_stealer_log AS "isStealerLog",
           ARRAY(SELECT e FROM unnest(u.emails) AS e WHERE NOT e = ANY(coalesce(x.emails, ARRAY[]::text[])) ORDER BY e) AS added
    FROM upserted u JOIN breaches b ON b.id = u.breach_id
    LEFT JOIN earlier x ON x.customer_id = u.customer_id AND x.breach_id = u.breach_id
    ORDER BY u.customer_id, b.name`;
  // The websites captured for the addresses newly recorded in stealer logs (only ever at verified
  // domains): a new instance's event names them, and so does the alert, from this one lookup.
  const websites = await capturedWebsites(
    tx,
    rows.filter((row) => row.isStealerLog && row.added.length > 0).map((row) => ({ breachId: row.breachId, emails: row.added })),
  );
  for (const row of rows) {
    const customer = instances.get(row.customerId) ?? { newInstances: [], recorded: [] };
    instances.set(row.customerId, customer);
    if (row.inserted) {
      customer.newInstances.push({
        uuid: row.id,
        name: row.name,
        emails: row.emails,
        // A new instance's addresses are all newly recorded: its websites are theirs.
        ...(row.isStealerLog && { websiteDomains: websitesOfBreach(websites.get(row.breachId), row.added) }),
      });
    }
    if (row.added.length > 0) customer.recorded.push({ breachId: row.breachId, emails: row.added });
  }
  return { instances, websites };
}

/**
 * Scans many customers, `concurrency` at a time (admin run-scans, benchmarks). Each customer
 * is its own scan and transaction, so one failure does not undo the others; failures are
 * logged and counted.
 */
export async function scanCustomers(
  db: Db,
  customerIds: readonly string[],
  reason: ScanReason,
  { concurrency = 4, source = configuredBreachSource() }: { concurrency?: number; source?: BreachSource } = {},
): Promise<{ scanned: number; skipped: number; failed: number }> {
  const totals = { scanned: 0, skipped: 0, failed: 0 };
  await forEachConcurrently(customerIds, concurrency, async (customerId) => {
    try {
      const outcome = await scanCustomer(db, customerId, reason, source);
      totals[outcome.scanned ? "scanned" : "skipped"]++;
    } catch (error) {
      totals.failed++;
      log.error("customer scan failed", { customerId, reason, error });
    }
  });
  return totals;
}

/** Active customers' ids after `afterId`, in id order (pages of the daily scan's fan-out). */
export async function activeCustomerIds(db: Queryable, { afterId, limit }: { afterId?: string; limit: number }): Promise<string[]> {
  const rows = await db.customer.findMany({
    where: { status: "active", ...(afterId ? { id: { gt: afterId } } : {}) },
    orderBy: { id: "asc" },
    take: limit,
    select: { id: true },
  });
  return rows.map((row) => row.id);
}

/** The daily scan of every active customer, now, a page of customers at a time (admin run-scans). */
export async function scanAllActiveCustomers(
  db: Db,
  options: { concurrency?: number; source?: BreachSource; pageSize?: number } = {},
): Promise<{ scanned: number; skipped: number; failed: number }> {
  const totals = { scanned: 0, skipped: 0, failed: 0 };
  let afterId: string | undefined;
  for (;;) {
    const ids = await activeCustomerIds(db, { afterId, limit: options.pageSize ?? 1_000 });
    if (ids.length === 0) return totals;
    const page = await scanCustomers(db, ids, "daily", options);
    totals.scanned += page.scanned;
    totals.skipped += page.skipped;
    totals.failed += page.failed;
    afterId = ids[ids.length - 1];
  }
}
