import type { LocaleCode } from "../i18n/locales";
import { periodLabel } from "../i18n/format";
import { reportTexts, type NotificationTexts } from "../i18n/translations";
import type { MonthlyReportData, ReportBreach } from "./types";

/** Domains listed by name in a report; beyond this, "and N more". */
const LISTED_DOMAINS = 20;

/**
 * The monthly report as lines of text in the customer's locale: what the e-mail and its PDF
 * both show, so the two cannot say different things.
 */
export function monthlyReportView(data: MonthlyReportData, locale: LocaleCode, texts: NotificationTexts) {
  const t = texts.report;
  const {
    monthly: lists,
    executive: { resolvedOn },
  } = reportTexts(locale);
  const number = new Intl.NumberFormat(locale);
  const date = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" });
  const dayOf = (value: string) => date.format(new Date(`${value}T00:00:00Z`));
  const period = periodLabel(data.period, locale);
  const hiddenDomains = data.domains.length - LISTED_DOMAINS;
  const found = (breach: ReportBreach) => `${breach.title} (${dayOf(breach.breachDate)}): ${breach.emails.join(", ")}`;
  const items = <T extends ReportBreach>(listed: T[], count: number, line: (breach: T) => string = found) => [
    ...listed.map(line),
    ...(count > listed.length ? [t.more(count - listed.length)] : []),
  ];
  return {
    heading: t.heading(period),
    intro: t.intro(data.companyName, period),
    threatScore: { label: t.threatScore, value: t.scoreOutOf(number.format(data.threatScore)), scale: t.scale },
    change: data.previous ? t.change(data.threatScore - data.previous.threatScore, periodLabel(data.previous.period, locale)) : t.first,
    figures: [
      { label: t.newBreaches, value: number.format(data.newBreaches.count), note: t.newNote },
      { label: t.openBreaches, value: number.format(data.openBreaches), note: t.openNote },
      { label: t.fixedBreaches, value: number.format(data.fixedBreaches), note: t.fixedNote },
    ],
    newBreaches: { heading: t.newListHeading, empty: t.noNew, items: items(data.newBreaches.listed, data.newBreaches.count) },
    /** Absent for a report stored before the lists (its figures say the counts). */
    openBreaches: data.openListed && {
      heading: lists.openHeading,
      empty: lists.openEmpty,
      items: items(data.openListed, data.openBreaches),
    },
    fixedBreaches: data.fixedListed && {
      heading: lists.fixedHeading,
      empty: lists.fixedEmpty,
      items: items(
        data.fixedListed,
        data.fixedBreaches,
        (breach) => `${resolvedOn(breach.title, dayOf(breach.resolvedAt))} (${breach.emails.join(", ")})`,
      ),
    },
    mailboxes: { heading: lists.mailboxesHeading, summary: lists.mailboxes(data.emailCount, data.directoryEmailCount ?? 0) },
    assets: {
      heading: t.assets,
      summary: `${t.domains(data.domains.length)}, ${t.emails(data.emailCount)}`,
      domains: [...data.domains.slice(0, LISTED_DOMAINS), ...(hiddenDomains > 0 ? [t.more(hiddenDomains)] : [])],
    },
  };
}

export type MonthlyReportView = ReturnType<typeof monthlyReportView>;
