import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scanCustomer } from "../../server/findings/scanner";
import { updateCustomerAssets } from "../../server/customers/assets";
import { CUSTOMER_FIGURES_MIGRATION, recountCustomerFigures } from "../../server/customers/figures";
import { getPartnerAnalytics } from "../../server/customers/analytics";
import { MIGRATIONS_DIR } from "../../server/db/migrations";
import { hibpBreach, seedExposures } from "../helpers/breach-fixtures";
import { createTestCustomer } from "../helpers/customers";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";

let testDb: TestDatabase;
let org: TestOrg;

beforeAll(async () => {
  testDb = await createTestDatabase();
  org = await createTestOrg(testDb.db);
  await seedExposures(testDb.db, [hibpBreach("FiguresAlpha"), hibpBreach("FiguresBeta")], {
    "ceo@figures.example": ["FiguresAlpha"],
    "found@figures.example": ["FiguresAlpha", "FiguresBeta"],
  });
});
afterAll(async () => {
  await testDb?.close();
});

/** The stored figures and what the asset and breach rows say, side by side. */
async function storedAndCounted(customerId: string) {
  const customer = await testDb.db.customer.findUniqueOrThrow({
    where: { id: customerId },
    select: { monitoredDomainCount: true, monitoredEmailCount: true, breachCount: true },
  });
  const counted = {
    monitoredDomainCount: await testDb.db.monitoredAsset.count({ where: { customerId, kind: "domain" } }),
    monitoredEmailCount: await testDb.db.monitoredAsset.count({ where: { customerId, kind: "email" } }),
    breachCount: await testDb.db.customerBreach.count({ where: { customerId } }),
  };
  return { stored: customer, counted };
}

describe("a customer's stored figures", () => {
  it("follow onboarding, asset changes and scans", async () => {
    const customerId = await createTestCustomer(testDb.db, org.partner.id, {
      assetsDomains: ["figures.example", "second.example"],
      assetsEmails: ["ceo@figures.example"],
    });
    let figures = await storedAndCounted(customerId);
    expect(figures.stored).toEqual({ monitoredDomainCount: 2, monitoredEmailCount: 1, breachCount: 0 });

    // the scan discovers found@ at the monitored domain and records both breaches
    expect(await scanCustomer(testDb.db, customerId, "onboard")).toMatchObject({ scanned: true, discoveredEmails: 1, newBreaches: 2 });
    figures = await storedAndCounted(customerId);
    expect(figures.stored).toEqual({ monitoredDomainCount: 2, monitoredEmailCount: 2, breachCount: 2 });
    expect(figures.stored).toEqual(figures.counted);

    await updateCustomerAssets(testDb.db, org.partner.id, customerId, {
      domains: ["figures.example"],
      emails: ["a@figures.example", "b@figures.example", "c@figures.example"],
    });
    figures = await storedAndCounted(customerId);
    expect(figures.stored).toEqual({ monitoredDomainCount: 1, monitoredEmailCount: 3, breachCount: 2 });
    expect(figures.stored).toEqual(figures.counted);

    expect(await getPartnerAnalytics(testDb.db, org.partner.id)).toMatchObject({
      totalMonitoredDomains: 1,
      totalMonitoredEmails: 3,
      totalBreachesDetected: 2,
    });
  });

  it("an asset update recounts: a row written outside the services is counted by the next change", async () => {
    const customerId = await createTestCustomer(testDb.db, org.partner.id, { assetsDomains: ["drift.example"], assetsEmails: undefined });
    await testDb.db.monitoredAsset.create({ data: { customerId, kind: "email", value: "x@drift.example", domain: "drift.example" } });
    await updateCustomerAssets(testDb.db, org.partner.id, customerId, { domains: ["drift.example", "more.example"] });
    const figures = await storedAndCounted(customerId);
    expect(figures.stored).toEqual({ monitoredDomainCount: 2, monitoredEmailCount: 1, breachCount: 0 });
  });

  it("the backfill counts every customer and writes only the rows that differ", async () => {
    const customerId = await createTestCustomer(testDb.db, org.partner.id, {
      assetsDomains: ["backfill.example"],
      assetsEmails: ["a@backfill.example"],
    });
    expect(await recountCustomerFigures(testDb.db)).toBe(0);
    // as a database migrated before the figures existed has them
    await testDb.db.customer.updateMany({
      where: { partnerId: org.partner.id },
      data: { monitoredDomainCount: 0, monitoredEmailCount: 0, breachCount: 0 },
    });
    const customers = await testDb.db.customer.count({ where: { partnerId: org.partner.id } });
    expect(await recountCustomerFigures(testDb.db)).toBe(customers);
    expect((await storedAndCounted(customerId)).stored).toEqual({ monitoredDomainCount: 1, monitoredEmailCount: 1, breachCount: 0 });
    expect(await recountCustomerFigures(testDb.db)).toBe(0);
  });

  it("the backfill is tied to the migration that adds the figures", () => {
    expect(existsSync(path.join(MIGRATIONS_DIR, CUSTOMER_FIGURES_MIGRATION, "migration.sql"))).toBe(true);
  });
});
