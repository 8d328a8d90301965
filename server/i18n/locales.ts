/**
 * The six locales of the API's breach texts, the portal and the e-mails (docs/breaches.md); a text
 * missing in one of them falls back to en-GB.
 */
export const LOCALE_CODES = ["sv-SE", "nb-NO", "fi-FI", "da-DK", "en-GB", "nl-NL"] as const;
export type LocaleCode = (typeof LOCALE_CODES)[number];
export const DEFAULT_LOCALE: LocaleCode = "en-GB";

/** Each locale's name in its own language (a language picker lists them so). */
export const LOCALE_NAMES: Record<LocaleCode, string> = {
  "sv-SE": "Svenska",
  "nb-NO": "Norsk bokmål",
  "fi-FI": "Suomi",
  "da-DK": "Dansk",
  "en-GB": "English (UK)",
  "nl-NL": "Nederlands",
};

/** A text in every locale that has one; en-GB is always there and is the fallback. */
export type Localized = { "en-GB": string } & Partial<Record<LocaleCode, string>>;

export function localize(text: Localized, locale: LocaleCode): string {
  return text[locale] ?? text["en-GB"];
}
