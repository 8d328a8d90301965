import type { LocaleCode } from "@/server/i18n/locales";

/** A date (or date-time) as the customer's locale writes it, e.g. "1 March 2024" / "1. mars 2024". */
export function formatDate(value: string, locale: LocaleCode): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" }).format(new Date(value));
}
