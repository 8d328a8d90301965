import type { LocaleCode } from "./locales";

/** Fills the `{name}` places of a message. */
export function format(message: string, values: Record<string, string | number>): string {
  return message.replace(/\{(\w+)\}/g, (place, name: string) => (name in values ? String(values[name]) : place));
}

/** "October 2026" for the period "2026-10", in the locale. */
export function periodLabel(period: string, locale: LocaleCode): string {
  return new Intl.DateTimeFormat(locale, { month: "long", year: "numeric", timeZone: "UTC" }).format(new Date(`${period}-01T00:00:00Z`));
}
