import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { uiRouter } from "../../server/api/ui/root";
import type { UiSession } from "../../server/api/ui/session";
import { createBreachTestCustomer } from "../helpers/breach-fixtures";
import { createTestCustomer } from "../helpers/customers";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { createStaffSession, uiCallerAs } from "../helpers/ui";

let testDb: TestDatabase;
let orgX: TestOrg;
let orgY: TestOrg;
let staffX: UiSession;
let staffY: UiSession;

beforeAll(async () => {
  testDb = await createTestDatabase();
  orgX = await createTestOrg(testDb.db, "X", { domainPolicy: "verified" });
  orgY = await createTestOrg(testDb.db, "Y", { domainPolicy: "verified" });
  staffX = await createStaffSession(testDb.db, orgX.distributor.id);
  staffY = await createStaffSession(testDb.db, orgY.distributor.id);
});
afterAll(async () => {
  await testDb?.close();
});

describe("the admin UI's domain procedures", () => {
  it("list the domains added in the last 30 days of the staff member's partners only, flagging one monitored under two partners", async () => {
    const mine = await createBreachTestCustomer(testDb.db, orgX.partner.id, { domains: ["contested.example"], name: "Mine Ltd" });
    await createBreachTestCustomer(testDb.db, orgY.partner.id, { domains: ["contested.example"], name: "Theirs Ltd" });
    const old = await createBreachTestCustomer(testDb.db, orgX.partner.id, { domains: ["old.example"] });
    await testDb.db.$executeRaw`UPDATE monitored_assets SET created_at = now() - interval '31 days' WHERE customer_id = ${old.id}::uuid`;

    const { policy, domains } = await uiCallerAs(testDb.db, staffX).admin.domains.overview({});
    expect(policy).toBe("verified");
    expect(domains.map((row) => [row.domain, row.companyName, row.status, row.partnersMonitoring])).toEqual([
      ["contested.example", "Mine Ltd", "unverified", 2],
    ]);
    expect(domains[0]!.customerId).toBe(mine.id);
    const onePartner = await uiCallerAs(testDb.db, staffX).admin.domains.overview({ partnerId: orgY.partner.id });
    expect(onePartner.domains).toEqual([]);
  });

  it("attest a domain with the staff member's name and the required note, only for the distributor's own customers", async () => {
    const customer = await createBreachTestCustomer(testDb.db, orgX.partner.id, { domains: ["attested.example"] });
    const asX = uiCallerAs(testDb.db, staffX);
    await expect(asX.admin.domains.attest({ customerId: customer.id, domain: "attested.example", note: "  " })).rejects.toThrow(
      "A note is required: say why you vouch for this domain",
    );
    await expect(
      uiCallerAs(testDb.db, staffY).admin.domains.attest({ customerId: customer.id, domain: "attested.example", note: "Mine now" }),
    ).rejects.toThrow("Customer not found");
    await expect(asX.admin.domains.attest({ customerId: customer.id, domain: "other.example", note: "x" })).rejects.toThrow(
      "Domain not found",
    );
    expect(await asX.admin.domains.attest({ customerId: customer.id, domain: "attested.example", note: "Signed contract 42" })).toEqual({
      verified: true,
    });
    const row = await testDb.db.customerDomain.findFirstOrThrow({ where: { customerId: customer.id } });
    const staff = await testDb.db.staffUser.findUniqueOrThrow({ where: { id: (staffX as { staffId: string }).staffId } });
    expect(row).toMatchObject({
      status: "verified",
      method: "staff",
      note: "Signed contract 42",
      verifiedBy: staff.name?.trim() || staff.email,
    });
    expect(await testDb.db.outboxEvent.count({ where: { customerId: customer.id, type: "customer.domain.verified" } })).toBe(1);
  });

  it("list, per partner and domain, the listed addresses withheld past the partner's lookup budget, most first", async () => {
    vi.stubEnv("BREACH_RETRIEVE_RATE_LIMIT", "2");
    try {
      const guesses = (domain: string, count: number) => Array.from({ length: count }, (_, i) => `guess${i}@${domain}`);
      await createTestCustomer(testDb.db, orgX.partner.id, { assetsDomains: [], assetsEmails: guesses("victim.example", 6) });
      await createTestCustomer(testDb.db, orgX.partner.id, { assetsDomains: [], assetsEmails: guesses("victim.example", 3) });
      await createTestCustomer(testDb.db, orgX.partner.id, { assetsDomains: [], assetsEmails: guesses("other.example", 2) });
      await createTestCustomer(testDb.db, orgY.partner.id, { assetsDomains: [], assetsEmails: guesses("victim.example", 5) });
    } finally {
      vi.unstubAllEnvs();
    }
    // X's budget of 2 went to its first two guesses; the same addresses again cost nothing and stay disclosed.
    const { withheldListings } = await uiCallerAs(testDb.db, staffX).admin.domains.overview({});
    expect(withheldListings.map((row) => [row.partnerName, row.domain, row.addresses, row.customers])).toEqual([
      ["X partner", "victim.example", 5, 2],
      ["X partner", "other.example", 2, 1],
    ]);
    expect(withheldListings[0]!.partnerId).toBe(orgX.partner.id);
    expect(Date.parse(withheldListings[0]!.lastWithheldAt)).toBeGreaterThan(Date.now() - 60_000);
    expect((await uiCallerAs(testDb.db, staffY).admin.domains.overview({})).withheldListings).toEqual([
      expect.objectContaining({ partnerName: "Y partner", domain: "victim.example", addresses: 3, customers: 1 }),
    ]);
    expect((await uiCallerAs(testDb.db, staffX).admin.domains.overview({ partnerId: orgY.partner.id })).withheldListings).toEqual([]);
  });

  it("see their distributor's policy but cannot change it: it is an operator setting (the admin CLI)", async () => {
    expect(Object.keys(uiRouter._def.procedures).filter((path) => /polic/i.test(path))).toEqual([]);
    expect((await uiCallerAs(testDb.db, staffX).admin.domains.overview({})).policy).toBe("verified");
  });
});
