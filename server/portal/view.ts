import { setBreachResolved } from "../findings/instances";
import { revealedStealerLogAddresses } from "../findings/disclosure";
import { capturedWebsites } from "../breaches/exposure-index/captured-websites";
import { stealerLogSteps } from "../breaches/catalogue/texts";
import { breachFields, byBreachDateDesc, customerBreachEntry, redactedBreachEntry } from "../breaches/catalogue/records";
import { MAX_THREAT_SCORE } from "../customers/threat-score";
import type { Db } from "../db/client";
import type { CustomerStatus } from "../db/generated/enums";
import { notFound } from "../errors";
import type { LocaleCode } from "../i18n/locales";
import { portalLocale } from "../i18n/negotiate";
import { isUuid } from "../uuid";

/**
 * What the portal shows a signed-in customer, always of that customer alone. A prospect gets
 * the redacted view (docs/portal.md; per breach: the instance id, the exposed addresses and the
 * resolved flag; nothing about the breach itself, not even the order of the breach dates);
 * everyone else the full records in their locale, from the same builders as the partner API
 * (a stealer log's detail with its own steps and the websites captured at verified domains).
 */

export const PORTAL_BREACH_NOT_FOUND = "Breach not found";
/** Bars of the exposure timeline; older breaches are counted in the first one. */
export const TIMELINE_YEARS = 20;

export interface PortalCustomer {
  companyName: string;
  status: CustomerStatus;
  locale: LocaleCode;
  redacted: boolean;
}

async function customerOf(db: Db, customerId: string) {
  const customer = await db.customer.findUnique({
    where: { id: customerId },
    select: { companyName: true, status: true, localeCode: true, threatScore: true, lastScannedAt: true, partnerId: true },
  });
  if (!customer) throw notFound("Customer not found");
  return customer;
}

export async function portalCustomer(db: Db, customerId: string): Promise<PortalCustomer> {
  const customer = await customerOf(db, customerId);
  return {
    companyName: customer.companyName,
    status: customer.status,
    locale: portalLocale(customer.localeCode),
    redacted: customer.status === "prospect",
  };
}

export interface TimelineYear {
  year: number;
  /** The first bar also counts every older breach. */
  includesEarlier: boolean;
  unresolved: number;
  resolved: number;
}

export interface PortalOverview {
  threatScore: number;
  maxThreatScore: number;
  unresolved: number;
  resolved: number;
  exposedEmails: number;
  lastScannedAt: string | null;
  /** Breaches by the year they happened; null for prospects (breach dates are withheld). */
  timeline: TimelineYear[] | null;
}

export async function portalOverview(db: Db, customerId: string): Promise<PortalOverview> {
  const customer = await customerOf(db, customerId);
  const instances = await db.customerBreach.findMany({
    where: { customerId },
    select: { resolved: true, emails: true, breach: { select: { breachDate: true } } },
  });
  const resolved = instances.filter((instance) => instance.resolved).length;
  return {
    threatScore: customer.threatScore,
    maxThreatScore: MAX_THREAT_SCORE,
    unresolved: instances.length - resolved,
    resolved,
    exposedEmails: new Set(instances.flatMap((instance) => instance.emails)).size,
    lastScannedAt: customer.lastScannedAt?.toISOString() ?? null,
    timeline:
      customer.status === "prospect"
        ? null
        : exposureTimeline(
            instances.map((instance) => ({ year: instance.breach.breachDate.getUTCFullYear(), resolved: instance.resolved })),
          ),
  };
}

/** Consecutive years from the first breach to the last (at most TIMELINE_YEARS bars). */
export function exposureTimeline(breaches: ReadonlyArray<{ year: number; resolved: boolean }>): TimelineYear[] {
  if (breaches.length === 0) return [];
  const years = breaches.map((breach) => breach.year);
  const last = Math.max(...years);
  const first = Math.max(Math.min(...years), last - TIMELINE_YEARS + 1);
  const bars: TimelineYear[] = [];
  for (let year = first; year <= last; year++) bars.push({ year, includesEarlier: false, unresolved: 0, resolved: 0 });
  for (const breach of breaches) {
    const bar = bars[Math.max(breach.year, first) - first]!;
    if (breach.year < first) bar.includesEarlier = true;
    if (breach.resolved) bar.resolved++;
    else bar.unresolved++;
  }
  return bars;
}

export type FullBreachEntry = ReturnType<typeof customerBreachEntry>;
/** A prospect's entry, with its number in the order the exposures were found ("Exposure 3"). */
export type RedactedBreachEntry = ReturnType<typeof redactedBreachEntry> & { number: number };

/** The breaches page's choices (docs/portal.md): which, in what order, an address to look for, the page. */
export const BREACH_FILTERS = ["open", "fixed", "all"] as const;
export const BREACH_SORTS = ["newest", "exposed"] as const;
export const BREACH_PAGE_SIZE = 10;
export interface BreachListQuery {
  filter?: (typeof BREACH_FILTERS)[number];
  sort?: (typeof BREACH_SORTS)[number];
  /** Part of an exposed address, any case. */
  search?: string;
  page?: number;
  pageSize?: number;
}

interface BreachListPage {
  /** Breaches that match, before paging. */
  total: number;
  /** The page shown (the last one when `page` was past it). */
  page: number;
  pageSize: number;
}

export type PortalBreachList = BreachListPage &
  ({ redacted: false; breaches: FullBreachEntry[] } | { redacted: true; breaches: RedactedBreachEntry[] });

/**
 * The customer's breaches, filtered (not fixed, fixed, all), searched by address and paged.
 * Full view: newest first, or "exposed" (most kinds of data exposed, then most addresses, then
 * newest). Prospects: always in the order found, numbered in it (a sort by data would hint at
 * what is withheld).
 */
export async function portalBreaches(
  db: Db,
  customerId: string,
  locale: LocaleCode,
  query: BreachListQuery = {},
): Promise<PortalBreachList> {
  const customer = await customerOf(db, customerId);
  const filter = query.filter ?? "all";
  const needle = query.search?.trim().toLowerCase() ?? "";
  const matches = (instance: { resolved: boolean; emails: string[] }) =>
    (filter === "all" || instance.resolved === (filter === "fixed")) &&
    (needle === "" || instance.emails.some((email) => email.toLowerCase().includes(needle)));
  const pageOf = <T>(entries: T[]) => {
    const pageSize = query.pageSize ?? BREACH_PAGE_SIZE;
    const page = Math.min(Math.max(1, query.page ?? 1), Math.max(1, Math.ceil(entries.length / pageSize)));
    return { total: entries.length, page, pageSize, entries: entries.slice((page - 1) * pageSize, page * pageSize) };
  };
  if (customer.status === "prospect") {
    const instances = await db.customerBreach.findMany({
      where: { customerId },
      select: { id: true, emails: true, resolved: true },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    });
    const numbered = instances.map((instance, index) => ({ ...redactedBreachEntry(instance), number: index + 1 })).filter(matches);
    const { entries, ...paging } = pageOf(numbered);
    return { redacted: true, breaches: entries, ...paging };
  }
  const instances = (
    await db.customerBreach.findMany({
      where: { customerId },
      select: { id: true, emails: true, resolved: true, breach: { select: breachFields } },
    })
  ).filter(matches);
  const full = instances.map((instance) => ({ instance, entry: customerBreachEntry(instance, instance.breach, locale) }));
  full.sort(
    (a, b) =>
      (query.sort === "exposed"
        ? b.entry.breachCategories.length - a.entry.breachCategories.length || b.instance.emails.length - a.instance.emails.length
        : 0) || byBreachDateDesc(a.instance.breach, b.instance.breach),
  );
  const { entries, ...paging } = pageOf(full.map(({ entry }) => entry));
  return { redacted: false, breaches: entries, ...paging };
}

/** A stealer-log breach's websites captured for one address (docs/portal.md). */
export interface CapturedSites {
  email: string;
  websiteDomains: string[];
}

export type PortalBreachDetail =
  | { redacted: false; breach: FullBreachEntry & { description: string; capturedSites?: CapturedSites[] } }
  | { redacted: true; breach: RedactedBreachEntry };

export async function portalBreach(db: Db, customerId: string, breachInstanceId: string, locale: LocaleCode): Promise<PortalBreachDetail> {
  const customer = await customerOf(db, customerId);
  if (!isUuid(breachInstanceId)) throw notFound(PORTAL_BREACH_NOT_FOUND);
  const instance = await db.customerBreach.findFirst({
    where: { id: breachInstanceId, customerId },
    select: { id: true, emails: true, resolved: true, createdAt: true, breach: { select: { ...breachFields, isStealerLog: true } } },
  });
  if (!instance) throw notFound(PORTAL_BREACH_NOT_FOUND);
  if (customer.status === "prospect") {
    const earlier = await db.customerBreach.count({
      where: { customerId, OR: [{ createdAt: { lt: instance.createdAt } }, { createdAt: instance.createdAt, id: { lt: instance.id } }] },
    });
    return { redacted: true, breach: { ...redactedBreachEntry(instance), number: earlier + 1 } };
  }
  const entry = { ...customerBreachEntry(instance, instance.breach, locale), description: instance.breach.descriptionText };
  if (!instance.breach.isStealerLog) return { redacted: false, breach: entry };
  return {
    redacted: false,
    breach: { ...entry, nextSteps: stealerLogSteps(locale), capturedSites: await capturedSitesOf(db, customerId, instance) },
  };
}

/** The websites captured for a stealer-log instance's addresses, by address, of those at a domain verified now. */
async function capturedSitesOf(
  db: Db,
  customerId: string,
  instance: { emails: string[]; breach: { id: string } },
): Promise<CapturedSites[]> {
  const revealed = await revealedStealerLogAddresses(db, customerId, instance.emails);
  const websites = (await capturedWebsites(db, [{ breachId: instance.breach.id, emails: revealed }])).get(instance.breach.id);
  return revealed
    .filter((email) => websites?.has(email))
    .sort()
    .map((email) => ({ email, websiteDomains: websites!.get(email)! }));
}

/**
 * Marks one of the customer's breaches fixed or not fixed, through the partner API's own
 * service (breach/status): the same events, threat score and race safety.
 */
export async function setPortalBreachResolved(
  db: Db,
  customerId: string,
  breachInstanceId: string,
  resolved: boolean,
): Promise<{ resolved: boolean }> {
  const customer = await customerOf(db, customerId);
  const owned = isUuid(breachInstanceId) && (await db.customerBreach.count({ where: { id: breachInstanceId, customerId } })) === 1;
  if (!owned) throw notFound(PORTAL_BREACH_NOT_FOUND);
  return setBreachResolved(db, customer.partnerId, { breachInstanceId, customerId, resolved });
}

export interface PortalAssets {
  domains: string[];
  emails: Array<{ value: string; discovered: boolean; directory: boolean }>;
  /** The customer's connected directory (docs/directory.md): when it was last synced; null without one. */
  directory: { provider: "microsoft365"; lastSyncAt: string | null } | null;
}

/**
 * The monitored domains and e-mail addresses; `discovered` marks addresses a scan found on a
 * domain, `directory` those read from the customer's own directory.
 */
export async function portalAssets(db: Db, customerId: string): Promise<PortalAssets> {
  const connection = await db.directoryConnection.findUnique({ where: { customerId }, select: { provider: true, lastSyncAt: true } });
  const rows = await db.monitoredAsset.findMany({
    where: { customerId, active: true },
    select: { kind: true, value: true, source: true },
    orderBy: [{ kind: "asc" }, { value: "asc" }],
  });
  return {
    domains: rows.filter((row) => row.kind === "domain").map((row) => row.value),
    emails: rows
      .filter((row) => row.kind === "email")
      .map((row) => ({ value: row.value, discovered: row.source === "discovered", directory: row.source === "directory" })),
    directory: connection ? { provider: connection.provider, lastSyncAt: connection.lastSyncAt?.toISOString() ?? null } : null,
  };
}
