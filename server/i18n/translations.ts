import type { LocaleCode } from "./locales";
import { daDK } from "./messages/da-DK";
import { enGB, type Messages, type Translation } from "./messages/en-GB";
import { fiFI } from "./messages/fi-FI";
import { nbNO } from "./messages/nb-NO";
import { nlNL } from "./messages/nl-NL";
import { svSE } from "./messages/sv-SE";
import { daDKReports } from "./messages/reports/da-DK";
import { enGBReports, type ReportTexts } from "./messages/reports/en-GB";
import { fiFIReports } from "./messages/reports/fi-FI";
import { nbNOReports } from "./messages/reports/nb-NO";
import { nlNLReports } from "./messages/reports/nl-NL";
import { svSEReports } from "./messages/reports/sv-SE";

export type { ReportTexts };

/** Every text of the customer portal and its sign-in pages. */
export type PortalMessages = Messages["portal"];
/** Every text of the customer e-mails (and the monthly report's PDF, and the unsubscribe page). */
export type NotificationTexts = Messages["email"];
/** The operational e-mails to a webhook endpoint's owner, a partner or a distributor. */
export type OrganizationTexts = Messages["organization"];

/** One file per locale (server/i18n/messages/), each the portal's and the e-mails' texts. */
const MESSAGES: Record<LocaleCode, Translation> = {
  "en-GB": enGB,
  "sv-SE": svSE,
  "nb-NO": nbNO,
  "fi-FI": fiFI,
  "da-DK": daDK,
  "nl-NL": nlNL,
};

export function portalMessages(locale: LocaleCode): PortalMessages {
  return MESSAGES[locale].portal;
}

export function notificationTexts(locale: LocaleCode): NotificationTexts {
  return MESSAGES[locale].email;
}

/** The organization e-mails in the locale, else in en-GB (they exist in en-GB only, for when one is added). */
export function organizationTexts(locale: LocaleCode): OrganizationTexts {
  return MESSAGES[locale].organization ?? enGB.organization;
}

/** Domain verification's texts: the portal's Domains page, the e-mailed link and its page. */
export function domainTexts(locale: LocaleCode): Messages["domains"] {
  return MESSAGES[locale].domains;
}

const REPORTS: Record<LocaleCode, ReportTexts> = {
  "en-GB": enGBReports,
  "sv-SE": svSEReports,
  "nb-NO": nbNOReports,
  "fi-FI": fiFIReports,
  "da-DK": daDKReports,
  "nl-NL": nlNLReports,
};

/** The reports' texts: the monthly report's lists, the executive report, the prospect's exposure check. */
export function reportTexts(locale: LocaleCode): ReportTexts {
  return REPORTS[locale];
}
