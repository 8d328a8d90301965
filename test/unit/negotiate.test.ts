import { describe, expect, it } from "vitest";
import { negotiateLocale, portalLocale } from "../../server/i18n/negotiate";
import { notificationTexts } from "../../server/i18n/translations";

describe("portalLocale (a customer's localeCode)", () => {
  it.each([
    ["sv-SE", "sv-SE"],
    ["SV-se", "sv-SE"],
    ["nl-BE", "nl-NL"],
    ["en-US", "en-GB"],
    ["sv-FI", "sv-SE"],
    ["no", "nb-NO"],
    ["nn-NO", "nb-NO"],
    ["de-DE", "en-GB"],
    ["not a locale", "en-GB"],
    ["", "en-GB"],
    [null, "en-GB"],
  ])("%j reads %s", (code, expected) => {
    expect(portalLocale(code)).toBe(expected);
  });
});

describe("negotiateLocale (Accept-Language)", () => {
  it.each([
    ["fi-FI,fi;q=0.9,en;q=0.8", "fi-FI"],
    ["de-DE, da;q=0.7", "da-DK"],
    ["en;q=0.3, nl-BE", "nl-NL"],
    ["fr-CH, fr;q=0.9, *;q=0.5", "en-GB"],
    ["sv;q=0, nb", "nb-NO"],
    ["da-DK, bad tag!, sv", "da-DK"],
    ["x;;;,", "en-GB"],
    [null, "en-GB"],
  ])("%j reads %s", (header, expected) => {
    expect(negotiateLocale(header)).toBe(expected);
  });
});

describe("plurals (Intl.PluralRules)", () => {
  it("picks each locale's form by count: one for 1, other for 0, 2 and more", () => {
    const english = notificationTexts("en-GB");
    const finnish = notificationTexts("fi-FI");
    expect([0, 1, 2, 21].map((count) => english.alert.heading(count))).toEqual([
      "0 new data breaches",
      "1 new data breach",
      "2 new data breaches",
      "21 new data breaches",
    ]);
    expect([1, 3].map((count) => finnish.alert.heading(count))).toEqual(["1 uusi tietomurto", "3 uutta tietomurtoa"]);
  });
});
