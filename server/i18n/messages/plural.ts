import type { LocaleCode } from "../locales";

/**
 * The count's form in `locale` by its CLDR plural rules (Intl.PluralRules): the six languages
 * have two cardinal forms, `one` and `other`.
 */
export function pluralOf(locale: LocaleCode): (count: number, one: string, other: string) => string {
  const rules = new Intl.PluralRules(locale);
  return (count, one, other) => (rules.select(count) === "one" ? one : other);
}
