import { DEFAULT_LOCALE, LOCALE_CODES, type LocaleCode } from "./locales";

/** Each of the six locales (locales.ts) by its language; Norwegian in any written form reads Bokmål. */
const LOCALE_BY_LANGUAGE: Record<string, LocaleCode> = {
  sv: "sv-SE",
  nb: "nb-NO",
  no: "nb-NO",
  nn: "nb-NO",
  fi: "fi-FI",
  da: "da-DK",
  en: "en-GB",
  nl: "nl-NL",
};

/**
 * The portal's and the e-mails' locale for a customer's localeCode: the locale itself when it is one of the six,
 * else the one of the same language (nl-BE reads nl-NL, en-US en-GB), else en-GB.
 */
export function portalLocale(localeCode: string | null | undefined): LocaleCode {
  if (!localeCode) return DEFAULT_LOCALE;
  const exact = LOCALE_CODES.find((locale) => locale.toLowerCase() === localeCode.toLowerCase());
  return exact ?? LOCALE_BY_LANGUAGE[localeCode.split("-")[0]!.toLowerCase()] ?? DEFAULT_LOCALE;
}

/** The first language of an Accept-Language header that the portal speaks (by preference weight). */
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
  for (const { range } of ranges) {
    const language = range.split("-")[0]!.toLowerCase();
    if (LOCALE_BY_LANGUAGE[language]) return portalLocale(range);
  }
  return DEFAULT_LOCALE;
}
