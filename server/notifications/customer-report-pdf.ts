import type { LocaleCode } from "../i18n/locales";
import { reportTexts } from "../i18n/translations";
import { scoreChart } from "./pdf-chart";
import { MUTED, reportWriter } from "./pdf-writer";
import type { ReportBrand } from "./report-brand";

/** Dates are "YYYY-MM-DD" (UTC days). */
export interface ExecutiveReportData {
  companyName: string;
  from: string;
  to: string;
  /** The score at the end of evenly spaced days of the period, the first and the last included. */
  score: Array<{ date: string; score: number }>;
  newFindings: { count: number; listed: Array<{ title: string; breachDate: string; emails: string[] }> };
  resolvedFindings: { count: number; listed: Array<{ title: string; resolvedAt: string; emails: string[] }>; medianDays: number | null };
  openAtEnd: number;
  activeMailboxes: number;
  riskiestMailboxes: Array<{ email: string; openBreaches: number }>;
  riskiestBreaches: Array<{ title: string; breachDate: string; emailCount: number }>;
}

/** What the API shows of a prospect (docs/breaches.md): addresses and counts, nothing about the breaches themselves. */
export interface ProspectReportData {
  companyName: string;
  /** The day of the one-time check; null before it ran. */
  checkedOn: string | null;
  breachInstances: number;
  /** Each exposed address with the number of breach instances it is in. */
  mailboxes: Array<{ email: string; breaches: number }>;
  domains: string[];
}

/** Of a prospect's exposed addresses and checked domains, those listed by name. */
const LISTED_MAILBOXES = 100;
const LISTED_DOMAINS = 20;

function formats(locale: LocaleCode) {
  const date = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" });
  const number = new Intl.NumberFormat(locale);
  return { day: (value: string) => date.format(new Date(`${value}T00:00:00Z`)), count: (value: number) => number.format(value) };
}

/**
 * The executive report of a period as an A4 PDF: the threat score over time, new and resolved
 * findings, the riskiest mailboxes and breaches, in the customer's locale and under the brand.
 */
export function executiveReportPdf(data: ExecutiveReportData, meta: { locale: LocaleCode; brand: ReportBrand }): Promise<Buffer> {
  const t = reportTexts(meta.locale).executive;
  const { day, count } = formats(meta.locale);
  const brand = meta.brand;
  const period = t.period(day(data.from), day(data.to));
  const pdf = reportWriter({ locale: meta.locale, title: `${t.title}: ${period}`, subject: data.companyName, brand });
  pdf.title(t.title, `${data.companyName} · ${period}`);
  pdf.paragraph(t.intro(data.companyName, day(data.from), day(data.to)));

  pdf.heading(t.scoreHeading);
  const highest = data.score.reduce((top, point) => (point.score > top.score ? point : top), data.score[0]!);
  pdf.figures([
    { label: t.scoreStart, value: count(data.score[0]!.score), note: day(data.score[0]!.date) },
    { label: t.scoreEnd, value: count(data.score.at(-1)!.score), note: day(data.score.at(-1)!.date) },
    { label: t.scoreHighest, value: count(highest.score), note: day(highest.date) },
  ]);
  scoreChart(
    pdf,
    data.score.map((point) => ({ label: day(point.date), score: point.score })),
    brand.primaryColor,
  );
  pdf.paragraph(t.scale, MUTED, 9);
  pdf.figures([
    { label: t.newFindings, value: count(data.newFindings.count) },
    { label: t.resolvedFindings, value: count(data.resolvedFindings.count) },
    { label: t.openAtEnd, value: count(data.openAtEnd) },
    { label: t.mailboxes, value: count(data.activeMailboxes) },
  ]);

  const more = (total: number, listed: number) => (total > listed ? [t.more(total - listed)] : []);
  pdf.heading(t.newHeading);
  if (data.newFindings.count === 0) pdf.paragraph(t.newEmpty);
  else
    pdf.bullets([
      ...data.newFindings.listed.map((finding) => `${finding.title} (${day(finding.breachDate)}): ${finding.emails.join(", ")}`),
      ...more(data.newFindings.count, data.newFindings.listed.length),
    ]);

  pdf.heading(t.doneHeading);
  if (data.resolvedFindings.count === 0) pdf.paragraph(t.doneEmpty);
  else {
    pdf.bullets([
      ...data.resolvedFindings.listed.map(
        (finding) => `${t.resolvedOn(finding.title, day(finding.resolvedAt))} (${finding.emails.join(", ")})`,
      ),
      ...more(data.resolvedFindings.count, data.resolvedFindings.listed.length),
    ]);
    if (data.resolvedFindings.medianDays !== null) pdf.paragraph(t.medianDays(data.resolvedFindings.medianDays), MUTED);
  }

  pdf.heading(t.mailboxesHeading);
  if (data.riskiestMailboxes.length === 0) pdf.paragraph(t.noneOpen);
  else pdf.bullets(data.riskiestMailboxes.map((mailbox) => t.mailboxItem(mailbox.email, mailbox.openBreaches)));
  pdf.heading(t.breachesHeading);
  if (data.riskiestBreaches.length === 0) pdf.paragraph(t.noneOpen);
  else pdf.bullets(data.riskiestBreaches.map((breach) => t.breachItem(breach.title, day(breach.breachDate), breach.emailCount)));
  return pdf.finish();
}

/**
 * A prospect's one-time exposure check as an A4 PDF, for the partner's sales conversation: the
 * exposed addresses and the number of breach instances, as the API shows a prospect (no breach
 * names, dates, categories, descriptions or steps), and what full monitoring would add.
 */
export function prospectReportPdf(data: ProspectReportData, meta: { locale: LocaleCode; brand: ReportBrand }): Promise<Buffer> {
  const t = reportTexts(meta.locale).prospect;
  const { day, count } = formats(meta.locale);
  const brand = meta.brand;
  const pdf = reportWriter({ locale: meta.locale, title: t.title, subject: data.companyName, brand });
  pdf.title(t.title, data.companyName);
  pdf.paragraph(data.checkedOn ? t.intro(data.companyName, day(data.checkedOn)) : t.notChecked(data.companyName));
  pdf.figures([
    { label: t.instances, value: count(data.breachInstances) },
    { label: t.exposedMailboxes, value: count(data.mailboxes.length) },
  ]);
  pdf.heading(t.mailboxesHeading);
  if (data.mailboxes.length === 0) pdf.paragraph(t.none);
  else
    pdf.bullets([
      ...data.mailboxes.slice(0, LISTED_MAILBOXES).map((mailbox) => t.mailboxItem(mailbox.email, mailbox.breaches)),
      ...(data.mailboxes.length > LISTED_MAILBOXES ? [t.more(data.mailboxes.length - LISTED_MAILBOXES)] : []),
    ]);
  if (data.domains.length > 0) {
    pdf.heading(t.domainsHeading);
    pdf.bullets(data.domains.slice(0, LISTED_DOMAINS));
  }
  pdf.heading(t.upgradeHeading);
  pdf.bullets(t.upgrade);
  pdf.paragraph(t.contact(brand.name));
  return pdf.finish();
}
