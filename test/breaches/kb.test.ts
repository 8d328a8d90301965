import { beforeAll, describe, expect, it } from "vitest";
import { breachCategoryPage, kbLocale, KB_PREFIX } from "../../server/breaches/catalogue/kb";
import { LOCALE_CODES } from "../../server/i18n/locales";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { restTestBed } from "../helpers/rest";

/** Every category link the API gives (/kb/breach-categories/<slug>) has its page, in the six locales. */
const { testDb, server } = restTestBed();
let org: TestOrg;

beforeAll(async () => {
  org = await createTestOrg(testDb.db);
});

describe("breach category pages", () => {
  it("exist for every link of GET breach-categories, in each of the six locales, written in that locale", async () => {
    const res = await server.api.get("/api/v1/integrations/breach-categories", org.partner.headers);
    expect(res.status).toBe(200);
    const categories = res.body.breachCategories as Array<{ name: string; link: string; isBlacklist: boolean }>;
    expect(categories.length).toBeGreaterThan(100);
    for (const category of categories) {
      expect(category.link.startsWith(KB_PREFIX)).toBe(true);
      const slug = category.link.slice(KB_PREFIX.length);
      const pages = await Promise.all(LOCALE_CODES.map((locale) => breachCategoryPage(testDb.db, slug, locale)));
      for (const page of pages) expect(page).toMatchObject({ name: category.name, slug });
      for (const field of ["heading", "about"] as const) {
        expect(new Set(pages.map((page) => page![field])).size, `${category.name}: ${field}`).toBe(LOCALE_CODES.length);
      }
      // Neighbouring languages share some words ("Kritisk", "e-postadresser"); none is left in English.
      for (const field of ["kind", "seriousness"] as const) {
        const english = pages[LOCALE_CODES.indexOf("en-GB")]![field];
        expect(
          pages.filter((page) => page![field] === english),
          `${category.name}: ${field}`,
        ).toHaveLength(1);
      }
      const steps = pages.map((page) => page!.nextSteps.join(" "));
      if (steps[0]) expect(new Set(steps).size, `${category.name}: next steps`).toBe(LOCALE_CODES.length);
      expect(Boolean(pages[0]!.notShown)).toBe(category.isBlacklist);
    }
  });

  it("say what to do in the page's language", async () => {
    const swedish = await breachCategoryPage(testDb.db, "passwords", "sv-SE");
    expect(swedish).toMatchObject({ name: "Passwords", heading: "Passwords exponerade i ett dataintrång", seriousness: "Kritisk" });
    expect(swedish!.nextSteps[0]).toBe("Byt lösenord för det här kontot och för alla andra konton som använde samma lösenord.");
    const blacklisted = await breachCategoryPage(testDb.db, "sexual-orientations", "nl-NL");
    expect(blacklisted).toMatchObject({ nextSteps: [], seriousness: "Telt niet mee" });
    expect(blacklisted!.notShown).toMatch(/telt nooit mee/);
  });

  it("have none for a slug no category links to", async () => {
    expect(await breachCategoryPage(testDb.db, "telepathic-impressions", "en-GB")).toBeUndefined();
    expect(await breachCategoryPage(testDb.db, "../../etc/passwd", "en-GB")).toBeUndefined();
  });

  it("read ?lang= when it is one of the six, else the browser's language", () => {
    expect(kbLocale("fi-fi", "en-GB")).toBe("fi-FI");
    expect(kbLocale("de-DE", "da-DK")).toBe("da-DK");
    expect(kbLocale(undefined, "nb-NO")).toBe("nb-NO");
  });
});
