import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listPlans } from "../../server/distributors/plans";
import { seedSystemPlans, SYSTEM_PLANS } from "../../server/distributors/system-plans";
import { enqueueMonthlyReports } from "../../server/notifications/monthly-reports";
import { createMagicLink } from "../../server/portal/magic-links";
import { createTestCustomer } from "../helpers/customers";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";

/**
 * Plans mean what they list (docs/distributors.md, "Plans"): the service gates none of the listed
 * features by plan, so every plan lists the portal and the monthly report, and a Basic customer
 * gets both; a database seeded with the earlier lists gets the current ones on the next start.
 */
let testDb: TestDatabase;
let org: TestOrg;

beforeAll(async () => {
  testDb = await createTestDatabase();
  org = await createTestOrg(testDb.db);
});
afterAll(async () => {
  await testDb?.close();
});

const PORTAL = "Customer portal";
const REPORT = "Monthly exposure report (when enabled for the customer)";

describe("the system plans' features", () => {
  it("list the portal and the monthly report on every plan, and insurance only where allowsInsurance", async () => {
    const plans = await listPlans(testDb.db);
    expect(plans.map((plan) => plan.planType)).toEqual(SYSTEM_PLANS.map((plan) => plan.planType));
    for (const plan of plans) {
      const names = plan.features.map((feature) => feature.feature_name);
      expect(names).toEqual(expect.arrayContaining([PORTAL, REPORT, "Breach alerts", "Threat score"]));
      expect(names.includes("Cyber insurance eligibility")).toBe(plan.allowsInsurance);
    }
  });

  it("are what a Basic customer gets: a portal link, and the monthly report when it is enabled", async () => {
    const withReport = await createTestCustomer(testDb.db, org.partner.id, { planType: "basic", sendMonthlyReport: true });
    const withoutReport = await createTestCustomer(testDb.db, org.partner.id, { planType: "basic", sendMonthlyReport: false });
    expect((await createMagicLink(testDb.db, org.partner.id, withReport)).url).toMatch(/\/auth\/confirm\?token_hash=/);
    await enqueueMonthlyReports(testDb.db, "2999-01");
    const queued = await testDb.db.$queryRaw<Array<{ customerId: string }>>`
      SELECT payload->>'customerId' AS "customerId" FROM jobs WHERE payload->>'period' = '2999-01'`;
    const customers = queued.map((row) => row.customerId);
    expect(customers).toContain(withReport);
    expect(customers).not.toContain(withoutReport);
  });

  it("replace the earlier lists of a database seeded before, on the next start", async () => {
    await testDb.db.plan.update({ where: { planType: "basic" }, data: { features: ["Daily scans", "Breach alerts"] } });
    await seedSystemPlans(testDb.db);
    const basic = (await listPlans(testDb.db)).find((plan) => plan.planType === "basic")!;
    expect(basic.features.map((feature) => feature.feature_name)).toEqual([...SYSTEM_PLANS[0].features]);
  });
});
