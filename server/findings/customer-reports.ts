import type { Db } from "../db/client";
import { badRequest, notFound, unprocessable } from "../errors";
import type { LocaleCode } from "../i18n/locales";
import { portalLocale } from "../i18n/negotiate";
import { countedEmails, inactiveMailboxes } from "../monitored-mailboxes";
import {
  executiveReportPdf,
  prospectReportPdf,
  type ExecutiveReportData,
  type ProspectReportData,
} from "../notifications/customer-report-pdf";
import { reportBrandOf } from "../notifications/report-brand";
import { brandFor } from "../brand/brand";
import { exposurePoints, threatScore, type ScoredExposure } from "../customers/threat-score";
import { CUSTOMER_NOT_FOUND } from "./instances";

/** The longest period an executive report covers (a year, a leap day included). */
export const REPORT_MAX_DAYS = 366;
/** Without `from`, the report covers this many days up to `to`. */
export const REPORT_DEFAULT_DAYS = 90;
export const REPORT_FROM_INVALID = "from must be a date (YYYY-MM-DD)";
export const REPORT_TO_INVALID = "to must be a date (YYYY-MM-DD)";
export const REPORT_KIND_INVALID = "kind must be executive or prospect";
export const REPORT_ORDER_INVALID = "from must not be later than to";
export const REPORT_FUTURE_INVALID = "to must not be later than today (UTC)";
export const REPORT_TOO_LONG = `The period may be at most ${REPORT_MAX_DAYS} days`;
export const REPORT_PROSPECT_ONLY = "Customer is a prospect: its report is kind=prospect";
export const REPORT_NOT_PROSPECT = "Customer is not a prospect: kind=prospect is the one-time check of a prospect";

/** Findings listed by name in an executive report, riskiest mailboxes and breaches listed. */
const LISTED_FINDINGS = 20;
const LISTED_MAILBOXES = 10;
const LISTED_BREACHES = 5;
/** Points on the score chart at most. */
const SCORE_POINTS = 60;
const DAY_MS = 86_400_000;

const dayOf = (date: Date) => date.toISOString().slice(0, 10);
const startOf = (day: string) => new Date(`${day}T00:00:00Z`);

/** The period asked for, defaults filled in: `to` today, `from` REPORT_DEFAULT_DAYS days before `to`, both days included. */
export function reportPeriod(input: { from?: string; to?: string }, now = new Date()): { from: string; to: string } {
  const today = dayOf(now);
  const to = input.to ?? today;
  const from = input.from ?? dayOf(new Date(startOf(to).getTime() - (REPORT_DEFAULT_DAYS - 1) * DAY_MS));
  if (to > today) throw badRequest(REPORT_FUTURE_INVALID);
  if (from > to) throw badRequest(REPORT_ORDER_INVALID);
  if ((startOf(to).getTime() - startOf(from).getTime()) / DAY_MS + 1 > REPORT_MAX_DAYS) throw badRequest(REPORT_TOO_LONG);
  return { from, to };
}

export interface CustomerReportRequest {
  kind: "executive" | "prospect";
  from?: string;
  to?: string;
  localeCode?: LocaleCode;
}

/**
 * A customer's report as a PDF (GET customer/{customerId}/report): the executive report of a
 * period, or a prospect's one-time exposure check, in `localeCode` (default the customer's
 * locale) and under the partner's brand.
 */
export async function customerReport(
  db: Db,
  partnerId: string,
  customerId: string,
  request: CustomerReportRequest,
  now = new Date(),
): Promise<{ filename: string; pdf: Buffer }> {
  const customer = await db.customer.findFirst({
    where: { id: customerId, partnerId },
    select: { status: true, localeCode: true, companyName: true, firstScannedAt: true },
  });
  if (!customer) throw notFound(CUSTOMER_NOT_FOUND);
  const meta = {
    locale: request.localeCode ?? portalLocale(customer.localeCode),
    brand: reportBrandOf(await brandFor(db, { partnerId })),
  };
  if (request.kind === "prospect") {
    if (customer.status !== "prospect") throw unprocessable(REPORT_NOT_PROSPECT);
    const facts = await prospectReportFacts(db, customerId, customer);
    return { filename: "exposure-check.pdf", pdf: await prospectReportPdf(facts, meta) };
  }
  // The executive report names breaches: a prospect is shown none (docs/breaches.md).
  if (customer.status === "prospect") throw unprocessable(REPORT_PROSPECT_ONLY);
  const period = reportPeriod(request, now);
  const facts = await executiveReportFacts(db, { id: customerId, companyName: customer.companyName }, period, now);
  return { filename: `exposure-report-${period.from}-${period.to}.pdf`, pdf: await executiveReportPdf(facts, meta) };
}

/** Exactly what GET customer/{customerId}/breaches shows a prospect: its instances' addresses, counted. */
export async function prospectReportFacts(
  db: Db,
  customerId: string,
  customer: { companyName: string; firstScannedAt: Date | null },
): Promise<ProspectReportData> {
  const instances = await db.customerBreach.findMany({ where: { customerId }, select: { emails: true } });
  const perMailbox = new Map<string, number>();
  for (const instance of instances) for (const email of instance.emails) perMailbox.set(email, (perMailbox.get(email) ?? 0) + 1);
  const domains = await db.monitoredAsset.findMany({
    where: { customerId, kind: "domain" },
    select: { value: true },
    orderBy: { value: "asc" },
  });
  return {
    companyName: customer.companyName,
    checkedOn: customer.firstScannedAt ? dayOf(customer.firstScannedAt) : null,
    breachInstances: instances.length,
    mailboxes: [...perMailbox]
      .map(([email, breaches]) => ({ email, breaches }))
      .sort((a, b) => b.breaches - a.breaches || a.email.localeCompare(b.email)),
    domains: domains.map((domain) => domain.value),
  };
}

interface ReportInstance extends ScoredExposure {
  title: string;
  name: string;
  emails: string[];
  createdAt: Date;
  /** When it stopped counting: its resolution, or never. */
  resolvedAt: Date | null;
}

/**
 * The facts of an executive report. There is no score history: the score on a day is computed
 * from the findings' dates, as the instances found by then and not resolved by then score it
 * (an instance resolved and opened again counts from its finding; the addresses of directory
 * users who left count nowhere, as in today's score).
 */
export async function executiveReportFacts(
  db: Db,
  customer: { id: string; companyName: string },
  period: { from: string; to: string },
  now = new Date(),
): Promise<ExecutiveReportData> {
  const inactive = await inactiveMailboxes(db, customer.id);
  const rows = await db.customerBreach.findMany({
    where: { customerId: customer.id },
    select: {
      emails: true,
      createdAt: true,
      resolved: true,
      resolvedAt: true,
      breach: {
        select: { name: true, title: true, breachDate: true, dataClasses: true, isSpamList: true, isFabricated: true, isStealerLog: true },
      },
    },
  });
  const instances: ReportInstance[] = rows
    .filter((row) => row.emails.length === 0 || countedEmails(row.emails, inactive).length > 0)
    .map((row) => {
      const emails = countedEmails(row.emails, inactive);
      return {
        ...row.breach,
        emails,
        emailCount: emails.length,
        createdAt: row.createdAt,
        resolvedAt: row.resolved ? (row.resolvedAt ?? row.createdAt) : null,
      };
    });
  const start = startOf(period.from);
  const end = new Date(Math.min(startOf(period.to).getTime() + DAY_MS, now.getTime()));
  const openAt = (at: Date) => instances.filter((i) => i.createdAt < at && (i.resolvedAt === null || i.resolvedAt >= at));
  const found = instances
    .filter((i) => i.createdAt >= start && i.createdAt < end)
    .sort((a, b) => b.breachDate.getTime() - a.breachDate.getTime() || a.name.localeCompare(b.name));
  const resolved = instances
    .filter((i) => i.resolvedAt !== null && i.resolvedAt >= start && i.resolvedAt < end)
    .sort((a, b) => b.resolvedAt!.getTime() - a.resolvedAt!.getTime());
  const open = openAt(end);
  return {
    companyName: customer.companyName,
    ...period,
    score: scoreDays(period).map((day) => {
      const at = new Date(Math.min(startOf(day).getTime() + DAY_MS, now.getTime()));
      return { date: day, score: threatScore(openAt(at), at) };
    }),
    newFindings: {
      count: found.length,
      listed: found.slice(0, LISTED_FINDINGS).map((i) => ({ title: i.title, breachDate: dayOf(i.breachDate), emails: i.emails })),
    },
    resolvedFindings: {
      count: resolved.length,
      listed: resolved.slice(0, LISTED_FINDINGS).map((i) => ({ title: i.title, resolvedAt: dayOf(i.resolvedAt!), emails: i.emails })),
      medianDays: median(resolved.map((i) => Math.max(1, Math.ceil((i.resolvedAt!.getTime() - i.createdAt.getTime()) / DAY_MS)))),
    },
    openAtEnd: open.length,
    activeMailboxes: await db.monitoredAsset.count({ where: { customerId: customer.id, kind: "email", active: true } }),
    riskiestMailboxes: riskiestMailboxes(open, end),
    riskiestBreaches: open
      .map((i) => ({ i, points: exposurePoints(i, end) }))
      .sort((a, b) => b.points - a.points || b.i.emailCount - a.i.emailCount || a.i.name.localeCompare(b.i.name))
      .slice(0, LISTED_BREACHES)
      .map(({ i }) => ({ title: i.title, breachDate: dayOf(i.breachDate), emailCount: i.emailCount })),
  };
}

/** The days the score is drawn for: evenly spaced, at most SCORE_POINTS, the first and the last included. */
function scoreDays(period: { from: string; to: string }): string[] {
  const days = (startOf(period.to).getTime() - startOf(period.from).getTime()) / DAY_MS + 1;
  const step = Math.max(1, Math.ceil(days / SCORE_POINTS));
  const result: string[] = [];
  for (let offset = 0; offset < days - 1; offset += step) result.push(dayOf(new Date(startOf(period.from).getTime() + offset * DAY_MS)));
  result.push(period.to);
  return result;
}

/** The mailboxes whose open breaches weigh most (the threat score's points per breach), most first. */
function riskiestMailboxes(open: readonly ReportInstance[], at: Date) {
  const byEmail = new Map<string, { points: number; openBreaches: number }>();
  for (const instance of open) {
    const points = exposurePoints({ ...instance, emailCount: 1 }, at);
    for (const email of instance.emails) {
      const entry = byEmail.get(email) ?? { points: 0, openBreaches: 0 };
      byEmail.set(email, { points: entry.points + points, openBreaches: entry.openBreaches + 1 });
    }
  }
  return [...byEmail]
    .sort(([a, x], [b, y]) => y.points - x.points || y.openBreaches - x.openBreaches || a.localeCompare(b))
    .slice(0, LISTED_MAILBOXES)
    .map(([email, { openBreaches }]) => ({ email, openBreaches }));
}

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : Math.round((sorted[middle - 1]! + sorted[middle]!) / 2);
}
