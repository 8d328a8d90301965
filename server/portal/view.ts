import { setBreachResolved } from "../breaches/instances";
import { breachFields, byBreachDateDesc, customerBreachEntry, redactedBreachEntry } from "../breaches/records";
import { MAX_THREAT_SCORE } from "../breaches/threat-score";
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
 * everyone else the full records in their locale, from the same builders as the partner API.
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
export type RedactedBreachEntry = ReturnType<typeof redactedBreachEntry>;

export type PortalBreachList = { redacted: false; breaches: FullBreachEntry[] } | { redacted: true; breaches: RedactedBreachEntry[] };

export async function portalBreaches(db: Db, customerId: string, locale: LocaleCode): Promise<PortalBreachList> {
  const customer = await customerOf(db, customerId);
  if (customer.status === "prospect") {
    const instances = await db.customerBreach.findMany({
      where: { customerId },
      select: { id: true, emails: true, resolved: true },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    });
    return { redacted: true, breaches: instances.map(redactedBreachEntry) };
  }
  const instances = await db.customerBreach.findMany({
    where: { customerId },
    select: { id: true, emails: true, resolved: true, breach: { select: breachFields } },
  });
  instances.sort((a, b) => byBreachDateDesc(a.breach, b.breach));
  return { redacted: false, breaches: instances.map((instance) => customerBreachEntry(instance, instance.breach, locale)) };
}

export type PortalBreachDetail =
  { redacted: false; breach: FullBreachEntry & { description: string } } | { redacted: true; breach: RedactedBreachEntry };

export async function portalBreach(db: Db, customerId: string, breachId: string, locale: LocaleCode): Promise<PortalBreachDetail> {
  const customer = await customerOf(db, customerId);
  if (!isUuid(breachId)) throw notFound(PORTAL_BREACH_NOT_FOUND);
  const instance = await db.customerBreach.findFirst({
    where: { id: breachId, customerId },
    select: { id: true, emails: true, resolved: true, breach: { select: breachFields } },
  });
  if (!instance) throw notFound(PORTAL_BREACH_NOT_FOUND);
  if (customer.status === "prospect") return { redacted: true, breach: redactedBreachEntry(instance) };
  return {
    redacted: false,
    breach: { ...customerBreachEntry(instance, instance.breach, locale), description: instance.breach.descriptionText },
  };
}

/**
 * Marks one of the customer's breaches fixed or not fixed, through the partner API's own
 * service (breach/status): the same events, threat score and race safety.
 */
export async function setPortalBreachResolved(
  db: Db,
  customerId: string,
  breachId: string,
  resolved: boolean,
): Promise<{ resolved: boolean }> {
  const customer = await customerOf(db, customerId);
  const owned = isUuid(breachId) && (await db.customerBreach.count({ where: { id: breachId, customerId } })) === 1;
  if (!owned) throw notFound(PORTAL_BREACH_NOT_FOUND);
  return setBreachResolved(db, customer.partnerId, { breachId, customerId, resolved });
}

export interface PortalAssets {
  domains: string[];
  emails: Array<{ value: string; discovered: boolean }>;
}

/** The monitored domains and e-mail addresses; `discovered` marks addresses a scan found on a domain. */
export async function portalAssets(db: Db, customerId: string): Promise<PortalAssets> {
  const rows = await db.monitoredAsset.findMany({
    where: { customerId },
    select: { kind: true, value: true, source: true },
    orderBy: [{ kind: "asc" }, { value: "asc" }],
  });
  return {
    domains: rows.filter((row) => row.kind === "domain").map((row) => row.value),
    emails: rows.filter((row) => row.kind === "email").map((row) => ({ value: row.value, discovered: row.source === "discovered" })),
  };
}
