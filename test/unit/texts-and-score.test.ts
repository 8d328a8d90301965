import { describe, expect, it } from "vitest";
import { LOCALE_CODES } from "../../server/i18n/locales";
import { descriptionToText, generatedSummary, nextStepsFor } from "../../server/breaches/catalogue/texts";
import { breachSeverity, countFactor, recencyFactor, threatScore } from "../../server/customers/threat-score";

describe("next steps", () => {
  it("derives the steps from the data classes, most severe first, in each of the six locales", () => {
    const classes = ["Email addresses", "Passwords", "Phone numbers"];
    expect(nextStepsFor(classes, "en-GB")).toEqual([
      "Change the password of this account and of every other account that used the same password.",
      "Turn on multi-factor authentication wherever it is offered.",
      "Use a password manager so that every account has its own strong password.",
      "Beware of smishing: text messages and calls that claim to come from trusted organisations. Never share codes or passwords on request.",
      "Expect phishing e-mails that quote this breach; verify unexpected requests for payments or sign-ins through another channel.",
    ]);
    expect(nextStepsFor(classes, "sv-SE")[0]).toBe("Byt lösenord för det här kontot och för alla andra konton som använde samma lösenord.");
    expect(nextStepsFor(classes, "nl-NL")[3]).toMatch(/^Pas op voor smishing/);
    const perLocale = LOCALE_CODES.map((locale) => nextStepsFor(classes, locale));
    for (const steps of perLocale) expect(steps).toHaveLength(5);
    // Written in every locale: no two locales share a text for these steps.
    for (let step = 0; step < 5; step++) expect(new Set(perLocale.map((steps) => steps[step])).size).toBe(LOCALE_CODES.length);
  });

  it("writes the steps for less severe data in every locale too", () => {
    expect(nextStepsFor(["Usernames", "Email addresses"], "da-DK")).toEqual([
      "Tjek de andre tjenester, hvor det samme brugernavn bruges, for aktivitet, du ikke genkender.",
      "Forvent phishing-mails, der henviser til bruddet; bekræft uventede anmodninger om betaling eller login via en anden kanal.",
    ]);
    for (const classes of [["Names"], ["Usernames"], ["IP addresses"]]) {
      expect(new Set(LOCALE_CODES.map((locale) => nextStepsFor(classes, locale)[0])).size).toBe(LOCALE_CODES.length);
    }
  });

  it("gives no step for blacklisted or unknown classes", () => {
    expect(nextStepsFor(["Sexual orientations", "HIV statuses"], "en-GB")).toEqual([]);
    expect(nextStepsFor(["Telepathic impressions"], "fi-FI")).toEqual([]);
  });
});

describe("generated summary", () => {
  const breach = {
    title: "Adobe",
    breachDate: new Date("2013-10-04T00:00:00Z"),
    pwnCount: 152445165n,
    dataClasses: ["Email addresses", "Passwords", "Religions"],
  };

  it("is written in every locale from the breach's fields, without blacklisted data", () => {
    expect(generatedSummary(breach, "en-GB")).toBe(
      "In October 2013, Adobe suffered a data breach affecting 152,445,165 accounts. The exposed data included passwords and other sign-in secrets and e-mail addresses.",
    );
    expect(generatedSummary(breach, "sv-SE")).toMatch(
      /^I oktober 2013 drabbades Adobe av ett dataintrång som berörde 152\s445\s165 konton\. .*lösenord/,
    );
    const texts = LOCALE_CODES.map((locale) => generatedSummary(breach, locale));
    expect(new Set(texts).size).toBe(6);
    for (const text of texts) expect(text).not.toMatch(/relig|uskon|geloof/i);
  });

  it("omits the data sentence when nothing may be shown", () => {
    expect(generatedSummary({ ...breach, dataClasses: ["Sexual orientations"] }, "en-GB")).toBe(
      "In October 2013, Adobe suffered a data breach affecting 152,445,165 accounts.",
    );
  });
});

describe("descriptions", () => {
  it("become plain text", () => {
    expect(descriptionToText('In 2013, <a href="https://x" target="_blank">Adobe</a> lost &quot;data&quot;.<br>More.')).toBe(
      'In 2013, Adobe lost "data". More.',
    );
  });
});

describe("threat score (the examples of docs/threat-score.md)", () => {
  const now = new Date("2026-11-21T00:00:00Z");
  const recent = new Date("2026-05-01T00:00:00Z");
  const twoYears = new Date("2024-10-01T00:00:00Z");
  const old = new Date("2013-10-04T00:00:00Z");
  const passwords = ["Email addresses", "Passwords"];

  it.each([
    ["no unresolved exposure", [], 0],
    ["an old password breach, one address", [{ dataClasses: passwords, breachDate: old, emailCount: 1 }], 7],
    ["a recent password breach, one address", [{ dataClasses: passwords, breachDate: recent, emailCount: 1 }], 21],
    ["a recent password breach, four addresses", [{ dataClasses: passwords, breachDate: recent, emailCount: 4 }], 51],
    [
      "a two-year-old phone-number breach, one address",
      [{ dataClasses: ["Email addresses", "Phone numbers"], breachDate: twoYears, emailCount: 1 }],
      9,
    ],
    [
      "only special-category data besides the address",
      [{ dataClasses: ["Email addresses", "Sexual orientations"], breachDate: recent, emailCount: 1 }],
      2,
    ],
    [
      "a recent password breach that is a spam list, four addresses",
      [{ dataClasses: passwords, breachDate: recent, emailCount: 4, isSpamList: true }],
      0,
    ],
    [
      "a recent password breach that is fabricated, four addresses",
      [{ dataClasses: passwords, breachDate: recent, emailCount: 4, isFabricated: true }],
      0,
    ],
    [
      "a recent password breach, one address, beside a spam list and a fabricated breach",
      [
        { dataClasses: passwords, breachDate: recent, emailCount: 1 },
        { dataClasses: passwords, breachDate: recent, emailCount: 8, isSpamList: true },
        { dataClasses: ["Email addresses", "Credit cards"], breachDate: recent, emailCount: 8, isFabricated: true },
      ],
      21,
    ],
    [
      "a recent stealer log, one address (twice a password breach's points)",
      [{ dataClasses: passwords, breachDate: recent, emailCount: 1, isStealerLog: true }],
      38,
    ],
    [
      "ten recent password breaches, four addresses each",
      Array.from({ length: 10 }, () => ({ dataClasses: passwords, breachDate: recent, emailCount: 4 })),
      97,
    ],
  ])("%s scores %i", (_name, exposures, expected) => {
    expect(threatScore(exposures, now)).toBe(expected);
  });

  it("never leaves 0..97", () => {
    const many = Array.from({ length: 1000 }, () => ({ dataClasses: passwords, breachDate: recent, emailCount: 1000 }));
    expect(threatScore(many, now)).toBe(97);
  });

  it("takes the most severe scored class of a breach", () => {
    expect(breachSeverity(["Email addresses", "Credit cards", "Names"])).toBe(10);
    expect(breachSeverity(["HIV statuses"])).toBe(0);
  });

  it("weighs a breach by its age in steps: up to 1, 3 and 5 years, then older", () => {
    const yearsAgo = (years: number) => new Date(now.getTime() - years * 365.25 * 86_400_000);
    expect([0, 1, 1.01, 3, 3.01, 5, 5.01, 20].map((years) => recencyFactor(yearsAgo(years), now))).toEqual([
      1, 1, 0.75, 0.75, 0.5, 0.5, 0.3, 0.3,
    ]);
  });

  it("raises a breach's weight with its exposed addresses, with diminishing returns", () => {
    expect([0, 1, 2, 4, 1024].map(countFactor)).toEqual([1, 1, 2, 3, 11]);
  });
});
