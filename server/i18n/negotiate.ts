import { match } from "@formatjs/intl-localematcher";
import { DEFAULT_LOCALE, LOCALE_CODES, type LocaleCode } from "./locales";

/** Well-formed BCP 47 tags only: the matcher refuses the whole list for one malformed tag. */
function wellFormed(tags: string[]): string[] {
  return tags.filter((tag) => {
    try {
      return Intl.getCanonicalLocales(tag).length === 1;
    } catch {
      return false;
    }
  });
}

/**
 * The closest of the six locales (locales.ts) to the requested ones, in order of preference, by
 * CLDR's language matching (@formatjs/intl-localematcher, "best fit"): a locale itself, else one of
 * the same language (nl-BE reads nl-NL, en-US en-GB, sv-FI sv-SE), Norwegian in any written form
 * (no, nn) reads Bokmål; nothing close: en-GB.
 */
function closestLocale(requested: string[]): LocaleCode {
  const tags = wellFormed(requested);
  if (tags.length === 0) return DEFAULT_LOCALE;
  return match(tags, LOCALE_CODES, DEFAULT_LOCALE, { algorithm: "best fit" }) as LocaleCode;
}

/** The portal's and the e-mails' locale for a customer's localeCode. */
export function portalLocale(localeCode: string | null | undefined): LocaleCode {
  return localeCode ? closestLocale([localeCode]) : DEFAULT_LOCALE;
}

/** The portal's locale for an Accept-Language header: its ranges by weight (q), then matched. */
export function negotiateLocale(acceptLanguage: string | null | undefined): LocaleCode {
  const ranges = (acceptLanguage ?? "")
    .split(",")
    .map((part, index) => {
      const [range = "", ...params] = part.trim().split(";");
      const q = params.map((param) => /^\s*q=([\d.]+)\s*$/.exec(param)?.[1]).find(Boolean);
      return { range: range.trim(), weight: q === undefined ? 1 : Number(q), index };
    })
    .filter(({ range, weight }) => range !== "" && range !== "*" && weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  return closestLocale(ranges.map(({ range }) => range));
}
