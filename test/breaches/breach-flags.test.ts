import { beforeAll, describe, expect, it } from "vitest";
import { scanCustomer } from "../../server/findings/scanner";
import { customerDomain } from "../../server/domains/domains";
import { markDomainVerified } from "../../server/domains/verify";
import { createBreachTestCustomer, hibpBreach, seedExposures } from "../helpers/breach-fixtures";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { restTestBed } from "../helpers/rest";

const ADULT = hibpBreach("AdultSite", { Title: "Adult Site", BreachDate: "2024-06-01", IsSensitive: true });
const SHOP = hibpBreach("Shop", { Title: "Shop", BreachDate: "2020-02-01" });
const OLD_ADULT = hibpBreach("OldAdult", { Title: "Old Adult", BreachDate: "2012-01-01", IsSensitive: true, IsRetired: true });
/** A month ago: recent enough for the full recency factor of the threat score. */
const LAST_MONTH = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
const PASSWORDS = ["Email addresses", "Passwords"];
const SPAM_LIST = hibpBreach("SpamList", { BreachDate: LAST_MONTH, DataClasses: PASSWORDS, IsSpamList: true });
const FABRICATED = hibpBreach("Fabricated", { BreachDate: LAST_MONTH, DataClasses: PASSWORDS, IsFabricated: true });
const REAL = hibpBreach("Real", { BreachDate: LAST_MONTH, DataClasses: PASSWORDS });

const { testDb, server } = restTestBed();
let org: TestOrg;
let otherOrg: TestOrg;
let watcher: { id: string };
let domainOwner: { id: string };

/** Verifies a customer's domain as staff would (docs/domains.md). */
async function verifyDomain(customerId: string, domain: string) {
  const row = await customerDomain(testDb.db, customerId, domain);
  expect(await markDomainVerified(testDb.db, row.id, { method: "staff", by: "Test staff", note: "test" })).toBe(true);
}

beforeAll(async () => {
  org = await createTestOrg(testDb.db, "Sensitive");
  otherOrg = await createTestOrg(testDb.db, "Elsewhere");
  await seedExposures(testDb.db, [ADULT, SHOP, OLD_ADULT, SPAM_LIST, FABRICATED, REAL], {
    "listed@spam.example": ["SpamList", "Fabricated"],
    "also-real@spam.example": ["SpamList", "Fabricated", "Real"],
    "watched@acme.example": ["AdultSite", "Shop", "OldAdult"],
    "stranger@else.example": ["AdultSite", "Shop"],
    "only-adult@acme.example": ["AdultSite"],
    "nobody-told@else.example": ["AdultSite"],
    "found@disc.example": ["AdultSite"],
    "gone@left.example": ["AdultSite"],
    "theirs@other.example": ["AdultSite"],
  });
  watcher = await createBreachTestCustomer(testDb.db, org.partner.id, {
    domains: ["acme.example"],
    emails: ["watched@acme.example", "only-adult@acme.example"],
  });
  domainOwner = await createBreachTestCustomer(testDb.db, org.partner.id, { domains: ["disc.example"] });
  await scanCustomer(testDb.db, domainOwner.id, "onboard");
  const gone = await createBreachTestCustomer(testDb.db, org.partner.id, {
    status: "inactive",
    domains: ["left.example"],
    emails: ["gone@left.example"],
  });
  await verifyDomain(gone.id, "left.example");
  const theirs = await createBreachTestCustomer(testDb.db, otherOrg.partner.id, {
    domains: ["other.example"],
    emails: ["theirs@other.example"],
  });
  await verifyDomain(theirs.id, "other.example");
  await scanCustomer(testDb.db, watcher.id, "onboard");
});

async function retrievedTitles(email: string, headers = org.partner.headers): Promise<string[]> {
  const res = await server.api.post("/api/v1/integrations/breach/retrieve", { email }, headers);
  expect(res.status).toBe(200);
  return res.body.breaches.map((breach: { title: string }) => breach.title);
}

async function checked(body: { email: string; resolved?: boolean }, headers = org.partner.headers): Promise<boolean> {
  const res = await server.api.post("/api/v1/integrations/breach/check", body, headers);
  expect(res.status).toBe(200);
  return res.body.breach;
}

describe("sensitive breaches in breach/retrieve and breach/check", () => {
  it("leave out a sensitive breach of an address no customer of the partner monitors", async () => {
    expect(await retrievedTitles("stranger@else.example")).toEqual(["Shop"]);
    expect(await retrievedTitles("nobody-told@else.example")).toEqual([]);
    expect(await checked({ email: "nobody-told@else.example" })).toBe(false);
    expect(await checked({ email: "nobody-told@else.example", resolved: false })).toBe(false);
    expect(await checked({ email: "stranger@else.example" })).toBe(true);
  });

  it("leave it out for an address a customer monitors at a domain not verified for it, discovered or listed", async () => {
    expect(await retrievedTitles("watched@acme.example")).toEqual(["Shop"]);
    expect(await retrievedTitles("only-adult@acme.example")).toEqual([]);
    expect(await checked({ email: "only-adult@acme.example" })).toBe(false);
    expect(await retrievedTitles("found@disc.example")).toEqual([]);
    expect(await checked({ email: "found@disc.example" })).toBe(false);
  });

  it("show it once the address's domain is verified for a customer of the partner (retired breaches stay out)", async () => {
    await verifyDomain(watcher.id, "acme.example");
    expect(await retrievedTitles("watched@acme.example")).toEqual(["Adult Site", "Shop"]);
    expect(await retrievedTitles(" Only-Adult@ACME.example ")).toEqual(["Adult Site"]);
    expect(await checked({ email: "only-adult@acme.example" })).toBe(true);
    expect(await checked({ email: "only-adult@acme.example", resolved: false })).toBe(true);
  });

  it("show it for an address a scan discovered, once its domain is verified", async () => {
    await verifyDomain(domainOwner.id, "disc.example");
    expect(await retrievedTitles("found@disc.example")).toEqual(["Adult Site"]);
    expect(await checked({ email: "found@disc.example" })).toBe(true);
  });

  it("leave it out for an address of another partner's customer", async () => {
    expect(await retrievedTitles("theirs@other.example")).toEqual([]);
    expect(await checked({ email: "theirs@other.example" })).toBe(false);
    expect(await retrievedTitles("theirs@other.example", otherOrg.partner.headers)).toEqual(["Adult Site"]);
    expect(await retrievedTitles("watched@acme.example", otherOrg.partner.headers)).toEqual(["Shop"]);
    expect(await checked({ email: "only-adult@acme.example" }, otherOrg.partner.headers)).toBe(false);
  });

  it("leave it out for an address only an offboarded customer had, at a domain verified for it", async () => {
    expect(await retrievedTitles("gone@left.example")).toEqual([]);
    expect(await checked({ email: "gone@left.example" })).toBe(false);
  });

  it("show the sensitive breach in the customer's own breach list once its domain is verified", async () => {
    const res = await server.api.get(`/api/v1/integrations/customer/${watcher.id}/breaches`, org.partner.headers);
    expect(res.status).toBe(200);
    expect(res.body.breaches.map((breach: { breachName: string; emails: string[] }) => [breach.breachName, breach.emails])).toEqual([
      ["AdultSite", ["only-adult@acme.example", "watched@acme.example"]],
      ["Shop", ["watched@acme.example"]],
    ]);
  });
});

describe("spam lists and fabricated breaches in the threat score", () => {
  async function scoreAfterScan(emails: string[]) {
    const customer = await createBreachTestCustomer(testDb.db, org.partner.id, { emails });
    await scanCustomer(testDb.db, customer.id, "onboard");
    const breaches = await server.api.get(`/api/v1/integrations/customer/${customer.id}/breaches`, org.partner.headers);
    const score = await server.api.get(`/api/v1/integrations/customer/${customer.id}/threat-score`, org.partner.headers);
    return { breaches: breaches.body.breaches.map((breach: { breachName: string }) => breach.breachName).sort(), score: score.body };
  }

  it("are listed among the customer's breaches but count for nothing", async () => {
    expect(await scoreAfterScan(["listed@spam.example"])).toEqual({
      breaches: ["Fabricated", "SpamList"],
      score: { success: true, threatScore: 0 },
    });
  });

  it("add nothing to the score of a real breach (one recent password breach, one address: 21)", async () => {
    expect(await scoreAfterScan(["also-real@spam.example"])).toEqual({
      breaches: ["Fabricated", "Real", "SpamList"],
      score: { success: true, threatScore: 21 },
    });
  });
});
