import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateDemoExposures } from "../../server/breaches/exposure-index/demo";
import { authenticateStaff } from "../../server/auth/staff";
import { describeDemoCredentials, seedDemoIfEmpty } from "../../server/startup/demo";
import { createTestDatabase, type TestDatabase } from "../helpers/db";

let testDb: TestDatabase;
beforeAll(async () => {
  testDb = await createTestDatabase();
});
afterAll(async () => {
  await testDb?.close();
});

describe("demo data on an empty database", () => {
  it("imports the bundled catalogue, generates demo exposures and scans the demo customers", async () => {
    const demo = await seedDemoIfEmpty(testDb.db);
    expect(demo).toBeDefined();
    expect(await testDb.db.breach.count()).toBe(920);
    const exposures = await testDb.db.breachExposure.findMany({ orderBy: [{ email: "asc" }, { breachId: "asc" }] });
    expect(exposures.length).toBeGreaterThan(30);
    expect(exposures.every((exposure) => /@(northwind|contoso|fabrikam)\.example$/.test(exposure.email))).toBe(true);

    expect(demo!.customers.map((customer) => customer.status)).toEqual(["active", "active", "prospect"]);
    for (const customer of demo!.customers) {
      expect(await testDb.db.customerBreach.count({ where: { customerId: customer.id } })).toBeGreaterThan(0);
      expect(await testDb.db.monitoredAsset.count({ where: { customerId: customer.id, source: "discovered" } })).toBeGreaterThan(0);
      // a portal user, so a magic link signs the demo customer into the portal
      expect(await testDb.db.portalUser.count({ where: { customerId: customer.id } })).toBe(1);
      // the stored figures analytics sums match the rows
      expect(
        await testDb.db.customer.findUniqueOrThrow({
          where: { id: customer.id },
          select: { monitoredDomainCount: true, monitoredEmailCount: true, breachCount: true },
        }),
      ).toEqual({
        monitoredDomainCount: await testDb.db.monitoredAsset.count({ where: { customerId: customer.id, kind: "domain" } }),
        monitoredEmailCount: await testDb.db.monitoredAsset.count({ where: { customerId: customer.id, kind: "email" } }),
        breachCount: await testDb.db.customerBreach.count({ where: { customerId: customer.id } }),
      });
    }
    expect(describeDemoCredentials(demo!, "http://localhost:3000")).toContain(
      `/api/v1/integrations/customer/${demo!.customers[0]!.id}/magic-link`,
    );
    expect(describeDemoCredentials(demo!, "http://localhost:3000")).toContain(
      `/api/v1/integrations/customer/${demo!.customers[0]!.id}/breaches`,
    );
    // A new user's first receiver is on their own machine: the banner says which switch lets it in, and where the receivers are.
    expect(describeDemoCredentials(demo!, "http://localhost:3000")).toContain("restart with WEBHOOK_ALLOW_PRIVATE_URLS=true");
    expect(describeDemoCredentials(demo!, "http://localhost:3000")).toContain("http://localhost:3000/docs/webhooks#receive-webhooks");
    const signIn = await authenticateStaff(testDb.db, demo!.staff);
    expect(signIn).toMatchObject({ ok: true, staff: { email: "admin@demo-distributor.example", distributorId: demo!.distributor.id } });
    expect(describeDemoCredentials(demo!, "http://localhost:3000")).toMatch(
      new RegExp(`Admin UI\\s+E-mail:\\s+admin@demo-distributor\\.example\\s+Password:\\s+${demo!.staff.password}\\s`),
    );
    // The active demo customers' breach alerts wait to be sent (so `npm start` shows mail at /admin/mail).
    const alerts = await testDb.db.notification.findMany({
      where: { kind: "breach_alert" },
      select: { customerId: true, recipient: true },
    });
    expect(alerts.map((alert) => alert.customerId).sort()).toEqual(
      demo!.customers
        .filter((c) => c.status === "active")
        .map((c) => c.id)
        .sort(),
    );
    expect(alerts.map((alert) => alert.recipient).sort()).toEqual(["it@contoso.example", "it@northwind.example"]);
    expect(
      await testDb.db.customerBillingPeriod.count({ where: { customerId: { in: demo!.customers.map((customer) => customer.id) } } }),
    ).toBe(2);
    expect(await seedDemoIfEmpty(testDb.db)).toBeUndefined();
  });

  it("generates the same exposures every time", async () => {
    const before = await testDb.db.breachExposure.findMany({ orderBy: [{ email: "asc" }, { breachId: "asc" }] });
    await testDb.db.breachExposure.deleteMany();
    expect(await generateDemoExposures(testDb.db)).toBe(before.length);
    expect(await testDb.db.breachExposure.findMany({ orderBy: [{ email: "asc" }, { breachId: "asc" }] })).toEqual(before);
  });
});
