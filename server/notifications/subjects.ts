import type { LocaleCode } from "../i18n/locales";
import { periodLabel } from "../i18n/format";
import { notificationTexts, organizationTexts } from "../i18n/translations";
import type { NotificationContent } from "./types";

/** The subject line of a message (stored with it when it is queued). */
export function notificationSubject(content: NotificationContent, locale: LocaleCode): string {
  switch (content.kind) {
    case "welcome":
      return notificationTexts(locale).welcome.subject(content.data.companyName);
    case "breach_alert":
      if (content.data.digest)
        return notificationTexts(locale).alert.digestSubject(content.data.digest === "weekly", content.data.companyName);
      return notificationTexts(locale).alert.subject(
        content.data.redacted ? content.data.count : content.data.breaches.length,
        content.data.companyName,
      );
    case "monthly_report":
      return notificationTexts(locale).report.subject(content.data.companyName, periodLabel(content.data.period, locale));
    case "webhook_failing":
      return organizationTexts(locale).failing.subject(content.data.endpoint.url);
    case "webhook_disabled":
      return organizationTexts(locale).disabled.subject(content.data.endpoint.url);
    case "psa_failing":
      return organizationTexts(locale).psaFailing.subject(content.data.provider);
  }
}
