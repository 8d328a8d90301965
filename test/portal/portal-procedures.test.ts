import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContext } from "../../server/api/context";
import { createUiCaller } from "../../server/api/ui/root";
import type { UiSession } from "../../server/api/ui/session";
import { listCustomerBreaches } from "../../server/findings/instances";
import { scanCustomer } from "../../server/findings/scanner";
import { localBreachSource } from "../../server/breaches/exposure-index/sources/local";
import { transitionCustomer } from "../../server/customers/lifecycle";
import { exposureTimeline, TIMELINE_YEARS } from "../../server/portal/view";
import { hibpBreach, seedExposures } from "../helpers/breach-fixtures";
import { createTestCustomer } from "../helpers/customers";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";

let testDb: TestDatabase;
let org: TestOrg;

const BREACHES = [
  hibpBreach("Alpha", {
    Title: "Alpha Social",
    BreachDate: "2024-03-01",
    DataClasses: ["Email addresses", "Passwords", "Sexual orientations"],
  }),
  hibpBreach("Beta", { Title: "Beta Shop", BreachDate: "2015-06-01", DataClasses: ["Email addresses", "Phone numbers"] }),
  hibpBreach("Gamma", { Title: "Gamma Forum", BreachDate: "2015-01-01", DataClasses: ["Email addresses"] }),
];
/** Everything a prospect must not see of its breaches (docs/portal.md, "Prospects"). */
const WITHHELD = ["Alpha", "Beta", "Gamma", "Social", "Shop", "Forum", "2024", "2015", "Passwords", "Phone numbers", "suffered a breach"];

beforeAll(async () => {
  testDb = await createTestDatabase();
  org = await createTestOrg(testDb.db, "Portal");
  await seedExposures(testDb.db, BREACHES, {
    "ceo@acme.example": ["Alpha", "Beta"],
    "cfo@acme.example": ["Alpha", "Gamma"],
  });
});
afterAll(async () => {
  await testDb?.close();
});

interface SignedIn {
  customerId: string;
  portal: ReturnType<typeof createUiCaller>["portal"];
}

/** A scanned customer of the test partner and a portal caller signed in as it. */
async function signedInCustomer(options: { status?: "active" | "prospect"; localeCode?: string } = {}): Promise<SignedIn> {
  const customerId = await createTestCustomer(testDb.db, org.partner.id, {
    status: options.status ?? "active",
    localeCode: options.localeCode ?? "en-GB",
    assetsEmails: ["ceo@acme.example", "cfo@acme.example"],
  });
  await scanCustomer(testDb.db, customerId, "onboard", localBreachSource);
  return { customerId, portal: callerFor(customerId) };
}

function callerFor(customerId: string, accessExpiresAt = Math.floor(Date.now() / 1000) + 3600) {
  const portalUserId = "00000000-0000-4000-8000-000000000001";
  const session: UiSession = { kind: "customer", customerId, portalUserId, email: "it@acme.example", accessExpiresAt };
  return createUiCaller(createContext(testDb.db, new Headers(), "req", session)).portal;
}

describe("portal procedures for a fully monitored customer", () => {
  it("me: the company, its locale (six locales, same-language fallback, en-GB otherwise) and the full view", async () => {
    const { portal } = await signedInCustomer({ localeCode: "nl-BE" });
    expect(await portal.me()).toMatchObject({
      companyName: "Acme Ltd",
      status: "active",
      locale: "nl-NL",
      redacted: false,
      email: "it@acme.example",
    });
    expect((await (await signedInCustomer({ localeCode: "de-DE" })).portal.me()).locale).toBe("en-GB");
    expect((await (await signedInCustomer({ localeCode: "fi-FI" })).portal.me()).locale).toBe("fi-FI");
  });

  it("overview: threat score, counts of unresolved and resolved breaches, and the breaches by year", async () => {
    const { customerId, portal } = await signedInCustomer();
    const overview = await portal.overview();
    const stored = await testDb.db.customer.findUniqueOrThrow({ where: { id: customerId } });
    expect(overview).toMatchObject({ threatScore: stored.threatScore, maxThreatScore: 97, unresolved: 3, resolved: 0, exposedEmails: 2 });
    expect(overview.threatScore).toBeGreaterThan(0);
    expect(overview.timeline).toHaveLength(2024 - 2015 + 1);
    expect(overview.timeline![0]).toEqual({ year: 2015, includesEarlier: false, unresolved: 2, resolved: 0 });
    expect(overview.timeline!.at(-1)).toEqual({ year: 2024, includesEarlier: false, unresolved: 1, resolved: 0 });
  });

  it("breaches: newest first with categories (never a blacklisted one) and texts in the customer's locale", async () => {
    const { portal } = await signedInCustomer({ localeCode: "sv-SE" });
    const list = await portal.listBreaches();
    if (list.redacted) throw new Error("expected the full view");
    expect(list.breaches.map((breach) => breach.title)).toEqual(["Alpha Social", "Beta Shop", "Gamma Forum"]);
    const alpha = list.breaches[0]!;
    expect(alpha.breachCategories).toEqual(["Email addresses", "Passwords"]);
    expect(alpha.emails.sort()).toEqual(["ceo@acme.example", "cfo@acme.example"]);
    expect(alpha.nextSteps[0]).toBe("Byt lösenord för det här kontot och för alla andra konton som använde samma lösenord.");
    expect(alpha.generatedDescription).toMatch(/^I mars 2024 drabbades Alpha Social av ett dataintrång/);

    const detail = await portal.getBreach({ breachId: alpha.id });
    expect(detail).toEqual({ redacted: false, breach: { ...alpha, description: "In January 2024, Alpha suffered a breach & lost data." } });
  });

  it("mark fixed / not fixed goes through breach/status: the event, the threat score and the partner API agree", async () => {
    const { customerId, portal } = await signedInCustomer();
    const list = await portal.listBreaches();
    const target = list.breaches[0]!;
    const scoreBefore = (await portal.overview()).threatScore;

    expect(await portal.setBreachResolved({ breachId: target.id, resolved: true })).toEqual({ resolved: true });
    const partnerView = await listCustomerBreaches(testDb.db, org.partner.id, customerId, "en-GB");
    expect(partnerView.breaches.find((breach) => breach.id === target.id)?.resolved).toBe(true);
    const [event] = await testDb.db.outboxEvent.findMany({ where: { customerId, type: "customer.breach.resolved" } });
    expect(event?.payload).toMatchObject({ customer: { uuid: customerId }, breaches: [{ uuid: target.id, name: "Alpha" }] });
    const overview = await portal.overview();
    expect(overview).toMatchObject({ unresolved: 2, resolved: 1 });
    expect(overview.threatScore).toBeLessThan(scoreBefore);

    // the same value again changes nothing and emits nothing
    await portal.setBreachResolved({ breachId: target.id, resolved: true });
    expect(await testDb.db.outboxEvent.count({ where: { customerId, type: "customer.breach.resolved" } })).toBe(1);

    await portal.setBreachResolved({ breachId: target.id, resolved: false });
    expect(await testDb.db.outboxEvent.count({ where: { customerId, type: "customer.breach.unresolved" } })).toBe(1);
    expect((await portal.overview()).threatScore).toBe(scoreBefore);
  });

  it("assets: the monitored domains and e-mail addresses", async () => {
    const { portal } = await signedInCustomer();
    expect(await portal.assets()).toEqual({
      domains: ["acme.example"],
      emails: [
        { value: "ceo@acme.example", discovered: false, directory: false },
        { value: "cfo@acme.example", discovered: false, directory: false },
      ],
      directory: null,
    });
  });

  it("assets: which addresses come from Microsoft 365 and when it last synced; not those of users who left", async () => {
    const { customerId, portal } = await signedInCustomer();
    const lastSyncAt = new Date("2026-12-01T06:00:00.000Z");
    await testDb.db.directoryConnection.create({
      data: { customerId, provider: "microsoft365", tenantId: "t", clientId: "c", clientSecretCiphertext: "x", state: "ok", lastSyncAt },
    });
    await testDb.db.monitoredAsset.createMany({
      data: [
        { customerId, kind: "email", value: "new@acme.example", domain: "acme.example", source: "directory" },
        { customerId, kind: "email", value: "left@acme.example", domain: "acme.example", source: "directory", active: false },
      ],
    });
    const assets = await portal.assets();
    expect(assets.directory).toEqual({ provider: "microsoft365", lastSyncAt: lastSyncAt.toISOString() });
    expect(assets.emails).toContainEqual({ value: "new@acme.example", discovered: false, directory: true });
    expect(assets.emails.map((email) => email.value)).not.toContain("left@acme.example");
  });
});

describe("portal procedures for a prospect", () => {
  it("show the redacted view only: ids, exposed addresses and resolved flags; nothing about the breaches", async () => {
    const { customerId, portal } = await signedInCustomer({ status: "prospect" });
    expect((await portal.me()).redacted).toBe(true);

    const list = await portal.listBreaches();
    expect(list.redacted).toBe(true);
    expect(list.breaches).toHaveLength(3);
    // the number is the position in the order found ("Exposure 2"), nothing of the breach itself
    for (const breach of list.breaches) expect(Object.keys(breach).sort()).toEqual(["emails", "id", "number", "resolved"]);
    expect(list.breaches.map((breach) => "number" in breach && breach.number)).toEqual([1, 2, 3]);
    const detail = await portal.getBreach({ breachId: list.breaches[0]!.id });
    expect(detail).toEqual({ redacted: true, breach: list.breaches[0] });

    const overview = await portal.overview();
    expect(overview).toMatchObject({ unresolved: 3, resolved: 0, exposedEmails: 2, timeline: null });

    // (ids removed first: a random uuid may well contain "2015")
    const everything = JSON.stringify([list, detail, overview]).replace(
      /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g,
      "<id>",
    );
    for (const withheld of WITHHELD) expect(everything).not.toContain(withheld);

    // they can still mark a breach fixed, and the partner API agrees
    await portal.setBreachResolved({ breachId: list.breaches[0]!.id, resolved: true });
    const partnerView = await listCustomerBreaches(testDb.db, org.partner.id, customerId, "en-GB");
    expect(partnerView.breaches.find((breach) => breach.id === list.breaches[0]!.id)?.resolved).toBe(true);
  });

  it("upgraded, the same customer sees the full view", async () => {
    const { customerId, portal } = await signedInCustomer({ status: "prospect" });
    await transitionCustomer(testDb.db, org.partner.id, customerId, "upgrade");
    const list = await portal.listBreaches();
    expect(list.redacted).toBe(false);
    expect((await portal.overview()).timeline).not.toBeNull();
  });
});

describe("the breaches page's filter, sort, search and pages", () => {
  it("filters by fixed / not fixed, searches by address in any case, and pages", async () => {
    const { portal } = await signedInCustomer();
    const all = await portal.listBreaches();
    expect(all).toMatchObject({ total: 3, page: 1, pageSize: 10 });
    const beta = all.breaches.find((breach) => "title" in breach && breach.title === "Beta Shop")!;
    await portal.setBreachResolved({ breachId: beta.id, resolved: true });

    const titles = async (query: Parameters<typeof portal.listBreaches>[0]) => {
      const list = await portal.listBreaches(query);
      if (list.redacted) throw new Error("expected the full view");
      return { titles: list.breaches.map((breach) => breach.title), total: list.total, page: list.page };
    };
    expect(await titles({ filter: "fixed" })).toMatchObject({ titles: ["Beta Shop"], total: 1 });
    expect(await titles({ filter: "open" })).toMatchObject({ titles: ["Alpha Social", "Gamma Forum"], total: 2 });
    // ceo@ is in Alpha and Beta, cfo@ in Alpha and Gamma
    expect(await titles({ search: "CFO@" })).toMatchObject({ titles: ["Alpha Social", "Gamma Forum"] });
    expect(await titles({ search: "ceo", filter: "open" })).toMatchObject({ titles: ["Alpha Social"] });
    expect(await titles({ search: "nobody@" })).toMatchObject({ titles: [], total: 0 });
    // pages of two; a page past the end shows the last one
    expect(await titles({ pageSize: 2 })).toMatchObject({ titles: ["Alpha Social", "Beta Shop"], total: 3, page: 1 });
    expect(await titles({ pageSize: 2, page: 2 })).toMatchObject({ titles: ["Gamma Forum"], page: 2 });
    expect(await titles({ pageSize: 2, page: 9 })).toMatchObject({ titles: ["Gamma Forum"], page: 2 });
  });

  it("sorts by most data exposed: kinds of data (blacklisted ones never count), then addresses, then newest", async () => {
    const { portal } = await signedInCustomer();
    const list = await portal.listBreaches({ sort: "exposed" });
    if (list.redacted) throw new Error("expected the full view");
    // Alpha: 2 visible kinds, 2 addresses; Beta: 2 kinds, 1 address; Gamma: 1 kind
    expect(list.breaches.map((breach) => breach.title)).toEqual(["Alpha Social", "Beta Shop", "Gamma Forum"]);
    expect(list.breaches.map((breach) => breach.breachCategories.length)).toEqual([2, 2, 1]);
  });

  it("a prospect's exposures keep their numbers through filters and pages", async () => {
    const { portal } = await signedInCustomer({ status: "prospect" });
    const all = await portal.listBreaches();
    await portal.setBreachResolved({ breachId: all.breaches[1]!.id, resolved: true });
    const open = await portal.listBreaches({ filter: "open" });
    expect(open.breaches.map((breach) => "number" in breach && breach.number)).toEqual([1, 3]);
    const secondPage = await portal.listBreaches({ pageSize: 2, page: 2 });
    expect(secondPage.breaches.map((breach) => "number" in breach && breach.number)).toEqual([3]);
    const detail = await portal.getBreach({ breachId: all.breaches[2]!.id });
    expect(detail.redacted && detail.breach.number).toBe(3);
  });
});

describe("portal procedures refuse", () => {
  it("another customer's breach, as not found", async () => {
    const mine = await signedInCustomer();
    const theirs = await signedInCustomer();
    const theirBreach = (await theirs.portal.listBreaches()).breaches[0]!;
    await expect(mine.portal.getBreach({ breachId: theirBreach.id })).rejects.toThrow("Breach not found");
    await expect(mine.portal.setBreachResolved({ breachId: theirBreach.id, resolved: true })).rejects.toThrow("Breach not found");
    expect((await theirs.portal.getBreach({ breachId: theirBreach.id })).breach.resolved).toBe(false);
    await expect(mine.portal.getBreach({ breachId: "not-a-uuid" })).rejects.toThrow("Breach not found");
  });

  it("callers without a customer session, and an access token that ran out", async () => {
    const { customerId } = await signedInCustomer();
    const anonymous = createUiCaller(createContext(testDb.db, new Headers(), "req")).portal;
    await expect(anonymous.overview()).rejects.toThrow("Sign in to continue");
    const staff: UiSession = { kind: "staff", staffId: "s", distributorId: org.distributor.id, email: "ops@example.com", name: null };
    await expect(createUiCaller(createContext(testDb.db, new Headers(), "req", staff)).portal.overview()).rejects.toThrow(
      "Sign in to continue",
    );
    await expect(callerFor(customerId, Math.floor(Date.now() / 1000) - 1).overview()).rejects.toThrow("Session expired");
  });
});

describe("exposureTimeline", () => {
  it("fills the years between the first and the last breach, and folds older years into the first bar", () => {
    expect(exposureTimeline([])).toEqual([]);
    expect(
      exposureTimeline([
        { year: 2020, resolved: true },
        { year: 2022, resolved: false },
      ]),
    ).toEqual([
      { year: 2020, includesEarlier: false, unresolved: 0, resolved: 1 },
      { year: 2021, includesEarlier: false, unresolved: 0, resolved: 0 },
      { year: 2022, includesEarlier: false, unresolved: 1, resolved: 0 },
    ]);
    const long = exposureTimeline([
      { year: 1990, resolved: false },
      { year: 2000, resolved: false },
      { year: 2025, resolved: false },
    ]);
    expect(long).toHaveLength(TIMELINE_YEARS);
    expect(long[0]).toEqual({ year: 2025 - TIMELINE_YEARS + 1, includesEarlier: true, unresolved: 2, resolved: 0 });
  });
});
