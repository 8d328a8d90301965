import type { LocaleCode } from "../i18n/locales";
import { periodLabel } from "../i18n/format";
import type { NotificationTexts } from "../i18n/translations";
import type { MonthlyReportData } from "./types";

/** Domains listed by name in a report; beyond this, "and N more". */
const LISTED_DOMAINS = 20;

/**
 * The monthly report as lines of text in the customer's locale: what the e-mail and its PDF
 * both show, so the two cannot say different things.
 */
export function monthlyReportView(data: MonthlyReportData, locale: LocaleCode, texts: NotificationTexts) {
  const t = texts.report;
  const number = new Intl.NumberFormat(locale);
  const date = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" });
  const period = periodLabel(data.period, locale);
  const unlisted = data.newBreaches.count - data.newBreaches.listed.length;
  const hiddenDomains = data.domains.length - LISTED_DOMAINS;
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
    newBreaches: {
      heading: t.newListHeading,
      empty: t.noNew,
      items: [
        ...data.newBreaches.listed.map(
          (breach) => `${breach.title} (${date.format(new Date(`${breach.breachDate}T00:00:00Z`))}): ${breach.emails.join(", ")}`,
        ),
        ...(unlisted > 0 ? [t.more(unlisted)] : []),
      ],
    },
    assets: {
      heading: t.assets,
      summary: `${t.domains(data.domains.length)}, ${t.emails(data.emailCount)}`,
      domains: [...data.domains.slice(0, LISTED_DOMAINS), ...(hiddenDomains > 0 ? [t.more(hiddenDomains)] : [])],
    },
  };
}

export type MonthlyReportView = ReturnType<typeof monthlyReportView>;
