import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { importStealerLogs } from "../../server/breaches/exposure-index/stealer-log-import";
import { customerDomain } from "../../server/domains/domains";
import { markDomainVerified } from "../../server/domains/verify";
import { scanCustomer } from "../../server/findings/scanner";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { restTestBed } from "../helpers/rest";
import { createBreachTestCustomer, hibpBreach, seedExposures, writeTempFile } from "../helpers/breach-fixtures";

const { testDb, server } = restTestBed();
let org: TestOrg;
let breachIds: Map<string, string>;

beforeAll(async () => {
  org = await createTestOrg(testDb.db, "Stealer", { domainPolicy: "trusted" });
  breachIds = await seedExposures(testDb.db, [hibpBreach("Stealer", { IsStealerLog: true }), hibpBreach("Shop")], {
    "ceo@acme.example": ["Shop"],
  });
  const file = await writeTempFile(
    "captures.csv",
    [
      "email,website_domain,captured_at",
      "ceo@acme.example,netflix.com,2025-03-01",
      "ceo@acme.example,bank.example,2025-03-04T09:00:00Z",
      "cfo@acme.example,mail.example,",
      "ceo@hidden.example,bank.example,2025-03-01",
    ].join("\n"),
  );
  await importStealerLogs(testDb.db, { breachName: "Stealer", file });
});

async function verify(customerId: string, domain: string) {
  const row = await customerDomain(testDb.db, customerId, domain);
  await markDomainVerified(testDb.db, row.id, { method: "staff", by: "Test staff" });
}

const stealerLogs = (customerId: string, headers = org.partner.headers) =>
  server.api.get(`/api/v1/integrations/customer/${customerId}/stealer-logs`, headers);

describe("GET customer/{customerId}/stealer-logs", () => {
  it("lists the addresses at verified domains with their websites and latest capture, and nothing at other domains", async () => {
    const customer = await createBreachTestCustomer(testDb.db, org.partner.id, { domains: ["acme.example", "hidden.example"] });
    await scanCustomer(testDb.db, customer.id, "onboard");
    expect((await stealerLogs(customer.id)).body).toEqual({ success: true, count: 0, entries: [] });

    await verify(customer.id, "acme.example");
    const instance = await testDb.db.customerBreach.findFirstOrThrow({
      where: { customerId: customer.id, breachId: breachIds.get("Stealer")! },
    });
    const res = await stealerLogs(customer.id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      count: 2,
      entries: [
        {
          email: "ceo@acme.example",
          websiteDomains: ["bank.example", "netflix.com"],
          capturedAt: "2025-03-04T09:00:00.000Z",
          breachId: instance.id,
        },
        { email: "cfo@acme.example", websiteDomains: ["mail.example"], capturedAt: null, breachId: instance.id },
      ],
    });
    // The ordinary breach list holds the instance too, with its own (breach/status) id and the websites; other breaches have none.
    const breaches = await server.api.get(`/api/v1/integrations/customer/${customer.id}/breaches`, org.partner.headers);
    expect(
      breaches.body.breaches.map((breach: { id: string; breachName: string; websiteDomains?: string[] }) => [
        breach.breachName,
        breach.id === instance.id,
        breach.websiteDomains,
      ]),
    ).toEqual([
      ["Shop", false, undefined],
      ["Stealer", true, ["bank.example", "mail.example", "netflix.com"]],
    ]);
  });

  it("gives a prospect the count only", async () => {
    const prospect = await createBreachTestCustomer(testDb.db, org.partner.id, { status: "prospect", domains: ["acme.example"] });
    await verify(prospect.id, "acme.example");
    await scanCustomer(testDb.db, prospect.id, "onboard");
    expect((await stealerLogs(prospect.id)).body).toEqual({ success: true, count: 2, entries: [] });
  });

  it("refuses another partner's customer, an unknown one and a malformed id", async () => {
    const customer = await createBreachTestCustomer(testDb.db, org.partner.id, { domains: ["acme.example"] });
    const other = await createTestOrg(testDb.db, "Other");
    expect(await stealerLogs(customer.id, other.partner.headers)).toMatchObject({
      status: 404,
      body: { success: false, error: "Customer not found or does not belong to partner" },
    });
    expect((await stealerLogs(randomUUID())).status).toBe(404);
    expect(await stealerLogs("not-a-uuid")).toMatchObject({
      status: 400,
      body: { error: "Invalid route parameters: Customer ID must be a valid UUID" },
    });
  });
});
