import type { LocaleCode } from "../breaches/locales";
import { notificationTexts, periodLabel } from "./texts";
import type { NotificationContent } from "./types";

/** The subject line of a message (stored with it when it is queued). */
export function notificationSubject(content: NotificationContent, locale: LocaleCode): string {
  const texts = notificationTexts(locale);
  switch (content.kind) {
    case "welcome":
      return texts.welcome.subject(content.data.companyName);
    case "breach_alert":
      return texts.alert.subject(content.data.redacted ? content.data.count : content.data.breaches.length, content.data.companyName);
    case "monthly_report":
      return texts.report.subject(content.data.companyName, periodLabel(content.data.period, locale));
  }
}
