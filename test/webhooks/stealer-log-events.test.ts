import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { importStealerLogs } from "../../server/breaches/exposure-index/stealer-log-import";
import { transitionCustomer } from "../../server/customers/lifecycle";
import { customerDomain } from "../../server/domains/domains";
import { markDomainVerified } from "../../server/domains/verify";
import { mergeEvents, type StoredEvent } from "../../server/events/merge";
import { scanCustomer } from "../../server/findings/scanner";
import { createEndpoint } from "../../server/webhooks/endpoints";
import { createBreachTestCustomer, hibpBreach, seedExposures, writeTempFile } from "../helpers/breach-fixtures";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { drainWebhooks } from "../helpers/webhook-fixtures";
import type { TestReceiver } from "../helpers/webhook-receiver";
import { webhookTestBed } from "../helpers/webhook-test-bed";

/**
 * customer.breach.found of a stealer-log breach carries the captured websites (docs/webhooks.md,
 * "Current protocol"), delivered to a real receiver: in full payloads only, never in a prospect's
 * redacted one, and only for what was recorded (addresses at a domain verified for the customer).
 */
const testDb = webhookTestBed();
let breachIds: Map<string, string>;

beforeAll(async () => {
  breachIds = await seedExposures(testDb.db, [hibpBreach("StealerHook", { IsStealerLog: true }), hibpBreach("ShopHook")], {});
});

/** Two domains of their own, stealer logs at both and an ordinary breach of the CEO at the first. */
async function exposedDomains() {
  const tag = randomUUID().slice(0, 8);
  const [verified, hidden] = [`v${tag}.example`, `h${tag}.example`];
  await testDb.db.breachExposure.create({ data: { domain: verified, email: `ceo@${verified}`, breachId: breachIds.get("ShopHook")! } });
  const file = await writeTempFile(
    `captures-${tag}.csv`,
    [
      "email,website_domain,captured_at",
      `ceo@${verified},netflix.com,2025-03-01`,
      `ceo@${verified},bank.example,2025-03-04`,
      `cfo@${verified},mail.example,`,
      `ceo@${hidden},secret-bank.example,2025-03-01`,
    ].join("\n"),
  );
  await importStealerLogs(testDb.db, { breachName: "StealerHook", file });
  return { verified, hidden };
}

async function verify(customerId: string, domain: string) {
  const row = await customerDomain(testDb.db, customerId, domain);
  await markDomainVerified(testDb.db, row.id, { method: "staff", by: "Test staff" });
}

async function partnerWithEndpoint(): Promise<{ org: TestOrg; target: TestReceiver }> {
  const org = await createTestOrg(testDb.db, `Hook ${randomUUID().slice(0, 6)}`, { domainPolicy: "verified" });
  const target = await testDb.receiver(() => ({ status: 200 }));
  await createEndpoint(testDb.db, { partnerId: org.partner.id }, "current", {
    url: target.url,
    eventTypes: ["customer.breach.found"],
    signatureScheme: "standard-webhooks",
  });
  return { org, target };
}

const foundBodies = (target: TestReceiver) =>
  target.requests.map((request) => JSON.parse(request.body)).filter((body) => body.type === "customer.breach.found");

describe("customer.breach.found of stealer logs", () => {
  it("names the websites captured for the addresses recorded, on stealer-log breaches only", async () => {
    const { org, target } = await partnerWithEndpoint();
    const { verified, hidden } = await exposedDomains();
    const customer = await createBreachTestCustomer(testDb.db, org.partner.id, { domains: [verified, hidden] });
    await verify(customer.id, verified);
    await scanCustomer(testDb.db, customer.id, "onboard");
    await drainWebhooks(testDb.db);

    const [body, ...others] = foundBodies(target);
    expect(others).toEqual([]);
    const instances = await testDb.db.customerBreach.findMany({ where: { customerId: customer.id }, select: { id: true, breachId: true } });
    const instanceOf = (name: string) => instances.find((instance) => instance.breachId === breachIds.get(name))!.id;
    expect(body.data.breaches).toEqual([
      { uuid: instanceOf("ShopHook"), name: "ShopHook", emails: [`ceo@${verified}`] },
      {
        uuid: instanceOf("StealerHook"),
        name: "StealerHook",
        emails: [`ceo@${verified}`, `cfo@${verified}`],
        websiteDomains: ["bank.example", "mail.example", "netflix.com"],
      },
    ]);
    // The address at the unverified domain, and its website, stay out.
    expect(JSON.stringify(body)).not.toContain(hidden);
    expect(JSON.stringify(body)).not.toContain("secret-bank.example");
  });

  it("never in a prospect's redacted payload; the upgrade's full event carries them", async () => {
    const { org, target } = await partnerWithEndpoint();
    const { verified } = await exposedDomains();
    const prospect = await createBreachTestCustomer(testDb.db, org.partner.id, { status: "prospect", domains: [verified] });
    await verify(prospect.id, verified);
    await scanCustomer(testDb.db, prospect.id, "onboard");
    await drainWebhooks(testDb.db);
    const [redacted] = foundBodies(target);
    expect(redacted.data).toMatchObject({ breachStatus: true, count: 2 });
    expect(JSON.stringify(redacted)).not.toMatch(/websiteDomains|netflix\.com|bank\.example|mail\.example|StealerHook/);

    await transitionCustomer(testDb.db, org.partner.id, prospect.id, "upgrade");
    await drainWebhooks(testDb.db);
    const upgraded = foundBodies(target)[1]!;
    expect(
      upgraded.data.breaches.map((breach: { name: string; websiteDomains?: string[] }) => [breach.name, breach.websiteDomains]),
    ).toEqual(
      expect.arrayContaining([
        ["ShopHook", undefined],
        ["StealerHook", ["bank.example", "mail.example", "netflix.com"]],
      ]),
    );
  });

  it("merged events union the websites of one breach instance", () => {
    const customer = { uuid: randomUUID(), name: "Acme Ltd", reference: "ACME" };
    const uuid = randomUUID();
    const stored = (websiteDomains: string[], emails: string[]): StoredEvent => ({
      id: randomUUID(),
      partnerId: "p",
      customerId: "c",
      createdAt: new Date(),
      event: { type: "customer.breach.found", data: { customer, breaches: [{ uuid, name: "StealerHook", emails, websiteDomains }] } },
    });
    const [merged, ...rest] = mergeEvents([
      stored(["netflix.com"], ["a@acme.example"]),
      stored(["bank.example", "netflix.com"], ["b@acme.example"]),
    ]);
    expect(rest).toEqual([]);
    expect(merged!.event.data).toMatchObject({
      breaches: [{ uuid, emails: ["a@acme.example", "b@acme.example"], websiteDomains: ["bank.example", "netflix.com"] }],
    });
  });
});
