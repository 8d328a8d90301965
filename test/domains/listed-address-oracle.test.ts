import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { issueApiKey } from "../../server/auth/api-keys";
import { customerDomain } from "../../server/domains/domains";
import { markDomainVerified } from "../../server/domains/verify";
import { createEndpoint } from "../../server/webhooks/endpoints";
import { createBreachTestCustomer, hibpBreach, seedExposures } from "../helpers/breach-fixtures";
import { onboardBody } from "../helpers/customers";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { runJobsUntilIdle } from "../helpers/jobs";
import { restTestBed } from "../helpers/rest";
import { drainWebhooks } from "../helpers/webhook-fixtures";
import { startReceiver, type TestReceiver } from "../helpers/webhook-receiver";

// Issue 39, item 4: a partner lists guessed addresses at a domain it does not own and reads which
// are exposed from its breach list and webhooks. Only as many as breach/retrieve would answer one
// key in a minute may be disclosed; the rest stay withheld until the domain is verified.
const SHOP = hibpBreach("Shop", { Title: "Shop", BreachDate: "2020-02-01" });
const BUDGET = 60;
/** The victim's exposed mailboxes, which the partner's guesses list last (beyond the budget). */
const WITHHELD = ["ceo@victim.example", "cfo@victim.example", "hr@victim.example", "payroll@victim.example"];
/** An exposed guess early in the list: within the budget, so disclosed as breach/retrieve would. */
const WITHIN_BUDGET = "guess-005@victim.example";
const OWN = "owner@attacker.example";
/** Past the budget at a domain the customer monitors, under `trusted`: shown as a discovered address there would be. */
const TRUSTED_OWN = "alice@trustme.example";

const { testDb, server } = restTestBed();
let attacker: TestOrg;
let bystander: TestOrg;
let receiver: TestReceiver;

const guesses = () => [
  ...Array.from({ length: 196 }, (_, i) => `guess-${String(i + 1).padStart(3, "0")}@victim.example`),
  ...WITHHELD, // 200 in all
];

beforeAll(async () => {
  vi.stubEnv("BREACH_RETRIEVE_RATE_LIMIT", String(BUDGET));
  vi.stubEnv("WEBHOOK_ALLOW_PRIVATE_URLS", "true");
  attacker = await createTestOrg(testDb.db, "Attacker", { domainPolicy: "verified" });
  bystander = await createTestOrg(testDb.db, "Bystander", { domainPolicy: "verified" });
  // The victim is another distributor's customer that monitors its own domain.
  const victimOrg = await createTestOrg(testDb.db, "Victim", { domainPolicy: "verified" });
  await createBreachTestCustomer(testDb.db, victimOrg.partner.id, { domains: ["victim.example"] });
  await seedExposures(testDb.db, [SHOP], Object.fromEntries([...WITHHELD, WITHIN_BUDGET, TRUSTED_OWN].map((email) => [email, ["Shop"]])));
  receiver = await startReceiver();
  await createEndpoint(testDb.db, { partnerId: attacker.partner.id }, "current", {
    url: receiver.url,
    eventTypes: ["customer.breach.found", "customer.asset.added"],
  });
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await receiver?.close();
});

async function onboardFree(org: TestOrg, emails: string[], headers = org.partner.headers): Promise<string> {
  const body = onboardBody({ assetsDomains: [], assetsEmails: emails, price: 0 });
  const res = await server.api.post("/api/v1/integrations/customer/onboard", body, headers);
  expect(res.status).toBe(200);
  await runJobsUntilIdle(testDb.db);
  return res.body.customerId;
}

async function patchAssets(org: TestOrg, customerId: string, body: Record<string, string[]>) {
  const res = await server.api.patch(`/api/v1/integrations/customer/${customerId}/assets`, body, org.partner.headers);
  expect(res.status).toBe(200);
  await runJobsUntilIdle(testDb.db);
  return res.body;
}

/** Every address the customer's breach list names. */
async function namedInBreaches(org: TestOrg, customerId: string): Promise<string[]> {
  const res = await server.api.get(`/api/v1/integrations/customer/${customerId}/breaches`, org.partner.headers);
  expect(res.status).toBe(200);
  return [...new Set(res.body.breaches.flatMap((breach: { emails: string[] }) => breach.emails))].sort() as string[];
}

/** The addresses the partner's webhooks named as breached (customer.breach.found) for the customer. */
async function namedInWebhooks(customerId: string): Promise<string[]> {
  await drainWebhooks(testDb.db);
  const found = receiver.requests
    .map(
      (request) =>
        JSON.parse(request.body) as { type: string; data: { customer: { uuid: string }; breaches?: Array<{ emails: string[] }> } },
    )
    .filter((event) => event.type === "customer.breach.found" && event.data.customer.uuid === customerId);
  return [...new Set(found.flatMap((event) => event.data.breaches!.flatMap((breach) => breach.emails)))].sort();
}

describe("addresses a partner lists at a domain not verified for the customer", () => {
  let customerId: string;

  it("are disclosed only up to the per-minute lookup budget: 200 guesses do not name the withheld mailboxes", async () => {
    customerId = await onboardFree(attacker, [OWN]);
    const lists = await patchAssets(attacker, customerId, { emails: [OWN, ...guesses()] });
    // Monitored all the same: the partner's list is what it asked for.
    expect(lists.emails).toHaveLength(201);
    expect(lists.emails).toEqual(expect.arrayContaining(WITHHELD));

    expect(await namedInBreaches(attacker, customerId)).toEqual([WITHIN_BUDGET]);
    expect(await namedInWebhooks(customerId)).toEqual([WITHIN_BUDGET]);
    // Nor the breach alert e-mail.
    const mails = JSON.stringify(await testDb.db.notification.findMany({ where: { customerId }, select: { data: true } }));
    expect(mails).toContain(WITHIN_BUDGET);
    for (const email of WITHHELD) expect(mails).not.toContain(email);
  });

  it("counts the budget per partner, not per key, and keeps another partner's budget whole", async () => {
    const secondKey = await issueApiKey(testDb.db, { partnerId: attacker.partner.id });
    const headers = { "SW-PARTNER-ID": attacker.partner.id, "SW-API-KEY": secondKey.apiKey };
    const again = await onboardFree(attacker, WITHHELD, headers);
    expect(await namedInBreaches(attacker, again)).toEqual([]);
    expect(await namedInWebhooks(again)).toEqual([]);

    const elsewhere = await onboardFree(bystander, WITHHELD);
    expect(await namedInBreaches(bystander, elsewhere)).toEqual(WITHHELD);
  });

  it("spends nothing again on an address already disclosed to the partner", async () => {
    const relisted = await onboardFree(attacker, [WITHIN_BUDGET]);
    expect(await namedInBreaches(attacker, relisted)).toEqual([WITHIN_BUDGET]);
  });

  it("under the trusted policy too, withholds past the budget what a discovered address would not show", async () => {
    const trusting = await createTestOrg(testDb.db, "Trusting", { domainPolicy: "trusted" });
    const fillers = Array.from({ length: BUDGET }, (_, i) => `filler-${i}@filler.example`);
    const body = onboardBody({ assetsDomains: ["trustme.example"], assetsEmails: [...fillers, WITHHELD[0], TRUSTED_OWN], price: 0 });
    const res = await server.api.post("/api/v1/integrations/customer/onboard", body, trusting.partner.headers);
    expect(res.status).toBe(200);
    await runJobsUntilIdle(testDb.db);
    // victim.example is not the customer's domain (and another distributor's customer monitors it).
    expect(await namedInBreaches(trusting, res.body.customerId)).toEqual([TRUSTED_OWN]);
  });

  it("reveals the withheld mailboxes once the domain is verified for the customer", async () => {
    await patchAssets(attacker, customerId, { domains: ["victim.example"] });
    expect(await namedInBreaches(attacker, customerId)).toEqual([WITHIN_BUDGET]);
    const row = await customerDomain(testDb.db, customerId, "victim.example");
    expect(await markDomainVerified(testDb.db, row.id, { method: "staff", by: "Test staff", note: "contract" })).toBe(true);
    expect(await namedInBreaches(attacker, customerId)).toEqual([...WITHHELD, WITHIN_BUDGET].sort());
  });
});
