import { countedEmails, inactiveMailboxes } from "../monitored-mailboxes";
import { z } from "zod";
import type { Db, Queryable } from "../db/client";
import { jobType } from "../jobs/queue";
import { UUID_PATTERN } from "../uuid";
import { queueNotification } from "./messages";
import type { MonthlyReportData } from "./types";
import { recipientsWanting } from "./unsubscribe";

export const MONTHLY_REPORT_JOB = "notifications.monthly-report";
/** One customer's report of a month, run by monthlyReportJob (jobs.ts). */
export const monthlyReportJobType = jobType(
  MONTHLY_REPORT_JOB,
  z.object({
    customerId: z.string().regex(UUID_PATTERN, "a uuid"),
    period: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, "a month (YYYY-MM)"),
  }),
);
/** New breaches listed by name in a report; the count covers all. */
export const LISTED_NEW_BREACHES = 20;
/** Open and resolved breaches listed by name in a report; the count covers all. */
export const LISTED_REPORT_BREACHES = 20;
/** Customers per page of the monthly fan-out. */
const FAN_OUT_PAGE = 1_000;

/** The month a schedule slot reports on: the slot "2026-11" (opened on 1 November) reports October. */
export function reportedPeriod(slot: string): string {
  const [year, month] = slot.split("-").map(Number) as [number, number];
  return new Date(Date.UTC(year, month - 2, 1)).toISOString().slice(0, 7);
}

export function periodBounds(period: string): { start: Date; end: Date } {
  const start = new Date(`${period}-01T00:00:00Z`);
  return { start, end: new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1)) };
}

/**
 * Queues one report job per customer that gets a report for the period (active, sendMonthlyReport,
 * its partner sends transactional e-mails, onboarded before the period ended), a page of
 * customers per statement. A customer whose job is queued already keeps it. Returns the number queued.
 */
export async function enqueueMonthlyReports(db: Queryable, period: string): Promise<number> {
  const { end } = periodBounds(period);
  let afterId = "00000000-0000-0000-0000-000000000000";
  let queued = 0;
  for (;;) {
    const page = await db.$queryRaw<Array<{ id: string }>>`
      SELECT c.id::text FROM customers c JOIN partners p ON p.id = c.partner_id
      WHERE c.status = 'active' AND c.send_monthly_report AND p.send_transactional_emails
        AND c.created_at < ${end} AND c.id > ${afterId}::uuid
      ORDER BY c.id LIMIT ${FAN_OUT_PAGE}`;
    if (page.length === 0) return queued;
    queued += await monthlyReportJobType.enqueueMany(
      db,
      page.map(({ id }) => ({ payload: { customerId: id, period }, dedupeKey: `monthly-report:${id}:${period}` })),
    );
    afterId = page[page.length - 1]!.id;
  }
}

/**
 * Writes a customer's report for the period, one message per alert recipient who did not opt
 * out, with the facts as they are now (the job runs on the 1st, right after the period). The
 * conditions of enqueueMonthlyReports are checked again: the customer may have changed since.
 */
export async function queueMonthlyReport(db: Db, customerId: string, period: string): Promise<string[]> {
  return db.$transaction(async (tx) => {
    const customer = await tx.customer.findUnique({
      where: { id: customerId },
      select: {
        status: true,
        sendMonthlyReport: true,
        createdAt: true,
        alertRecipients: true,
        localeCode: true,
        companyName: true,
        threatScore: true,
        partner: { select: { sendTransactionalEmails: true } },
      },
    });
    const { end } = periodBounds(period);
    if (!customer || customer.status !== "active" || !customer.sendMonthlyReport || !customer.partner.sendTransactionalEmails) return [];
    if (customer.createdAt >= end) return [];
    const recipients = await recipientsWanting(tx, customerId, "monthly_report", customer.alertRecipients);
    if (recipients.length === 0) return [];
    const data = await monthlyReportFacts(
      tx,
      { id: customerId, companyName: customer.companyName, threatScore: customer.threatScore },
      period,
    );
    return queueNotification(tx, {
      customerId,
      cause: period,
      localeCode: customer.localeCode,
      recipients,
      content: { kind: "monthly_report", data },
    });
  });
}

/**
 * What a report says: the threat score and its change since the previous report, breaches found
 * and resolved in the period, the breaches open now, and the monitored assets. It is written
 * every month, also when nothing is new ("No new exposures this month").
 */
export async function monthlyReportFacts(
  tx: Queryable,
  customer: { id: string; companyName: string; threatScore: number },
  period: string,
): Promise<MonthlyReportData> {
  const { start, end } = periodBounds(period);
  // One query after the other: a transaction is one connection.
  // The addresses of directory users who left make no report line (server/monitored-mailboxes.ts).
  const inactive = await inactiveMailboxes(tx, customer.id);
  const counts = (instance: { emails: string[] }) => instance.emails.length === 0 || countedEmails(instance.emails, inactive).length > 0;
  const counted = <T extends { emails: string[] }>(instances: T[]) =>
    instances.filter(counts).map((instance) => ({ ...instance, emails: countedEmails(instance.emails, inactive) }));
  const breach = { select: { name: true, title: true, breachDate: true } } as const;
  const found = counted(
    await tx.customerBreach.findMany({
      where: { customerId: customer.id, createdAt: { gte: start, lt: end } },
      select: { emails: true, breach },
    }),
  );
  const open = counted(
    await tx.customerBreach.findMany({ where: { customerId: customer.id, resolved: false }, select: { emails: true, breach } }),
  );
  const fixed = counted(
    await tx.customerBreach.findMany({
      where: { customerId: customer.id, resolved: true, resolvedAt: { gte: start, lt: end } },
      select: { emails: true, resolvedAt: true, breach },
      orderBy: { resolvedAt: "desc" },
    }),
  );
  const domains = await tx.monitoredAsset.findMany({
    where: { customerId: customer.id, kind: "domain" },
    select: { value: true },
    orderBy: { value: "asc" },
  });
  const emailCount = await tx.monitoredAsset.count({ where: { customerId: customer.id, kind: "email", active: true } });
  const directoryEmailCount = await tx.monitoredAsset.count({
    where: { customerId: customer.id, kind: "email", active: true, source: "directory" },
  });
  const previous = await tx.notification.findFirst({
    where: { customerId: customer.id, kind: "monthly_report", cause: { lt: period } },
    orderBy: { cause: "desc" },
    select: { cause: true, data: true },
  });
  const newestFirst = (a: { breach: { breachDate: Date; name: string } }, b: { breach: { breachDate: Date; name: string } }) =>
    b.breach.breachDate.getTime() - a.breach.breachDate.getTime() || a.breach.name.localeCompare(b.breach.name);
  found.sort(newestFirst);
  open.sort(newestFirst);
  const listed = ({ emails, breach }: { emails: string[]; breach: { title: string; breachDate: Date } }) => ({
    title: breach.title,
    breachDate: day(breach.breachDate),
    emails,
  });
  return {
    companyName: customer.companyName,
    period,
    threatScore: customer.threatScore,
    previous: previous ? { period: previous.cause, threatScore: (previous.data as unknown as MonthlyReportData).threatScore } : null,
    newBreaches: { count: found.length, listed: found.slice(0, LISTED_NEW_BREACHES).map(listed) },
    openBreaches: open.length,
    fixedBreaches: fixed.length,
    domains: domains.map((asset) => asset.value),
    emailCount,
    openListed: open.slice(0, LISTED_REPORT_BREACHES).map(listed),
    fixedListed: fixed.slice(0, LISTED_REPORT_BREACHES).map((instance) => ({ ...listed(instance), resolvedAt: day(instance.resolvedAt!) })),
    directoryEmailCount,
  };
}

const day = (date: Date) => date.toISOString().slice(0, 10);
