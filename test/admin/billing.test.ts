import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openMissingBillingPeriods, syncBillingPeriod } from "../../server/customers/billing-periods";
import { updateCustomerInfo } from "../../server/customers/info";
import { transitionCustomer } from "../../server/customers/lifecycle";
import { createBillingCode } from "../../server/distributors/billing-codes";
import { billingOverviewCsv, getBillingOverview, type BillingOverview } from "../../server/distributors/billing";
import { createPartner, updatePartner } from "../../server/distributors/partners";
import { createBreachTestCustomer } from "../helpers/breach-fixtures";
import { createTestCustomer } from "../helpers/customers";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";

let testDb: TestDatabase;
let org: TestOrg;
let planIds: Record<string, string>;

beforeAll(async () => {
  testDb = await createTestDatabase();
  org = await createTestOrg(testDb.db, "Billing");
  const plans = await testDb.db.plan.findMany({ select: { id: true, planType: true } });
  planIds = Object.fromEntries(plans.map((plan) => [plan.planType, plan.id]));
});
afterAll(async () => {
  await testDb?.close();
});

async function periodsOf(customerId: string) {
  const periods = await testDb.db.customerBillingPeriod.findMany({
    where: { customerId },
    orderBy: { startedAt: "asc" },
    select: { planId: true, partnerId: true, startedAt: true, endedAt: true },
  });
  return periods.map((period) => ({
    plan: Object.keys(planIds).find((type) => planIds[type] === period.planId),
    open: period.endedAt === null,
  }));
}

describe("billing periods follow the customer's status and plan", () => {
  it("opens at an active onboarding, closes and reopens through the lifecycle and plan changes", async () => {
    const partnerId = org.partner.id;
    const customerId = await createTestCustomer(testDb.db, partnerId, { planType: "basic" });
    expect(await periodsOf(customerId)).toEqual([{ plan: "basic", open: true }]);

    await updateCustomerInfo(testDb.db, partnerId, customerId, { planType: "plus" });
    expect(await periodsOf(customerId)).toEqual([
      { plan: "basic", open: false },
      { plan: "plus", open: true },
    ]);

    await updateCustomerInfo(testDb.db, partnerId, customerId, { companyName: "Renamed", planType: "plus" });
    await transitionCustomer(testDb.db, partnerId, customerId, "offboard");
    expect(await periodsOf(customerId)).toEqual([
      { plan: "basic", open: false },
      { plan: "plus", open: false },
    ]);

    await transitionCustomer(testDb.db, partnerId, customerId, "reactivate");
    await transitionCustomer(testDb.db, partnerId, customerId, "downgrade");
    expect(await periodsOf(customerId)).toEqual([
      { plan: "basic", open: false },
      { plan: "plus", open: false },
      { plan: "plus", open: false },
    ]);
  });

  it("gives a prospect none until it is upgraded; a plan change of a prospect opens nothing", async () => {
    const customerId = await createTestCustomer(testDb.db, org.partner.id, { status: "prospect" });
    await updateCustomerInfo(testDb.db, org.partner.id, customerId, { planType: "pro" });
    expect(await periodsOf(customerId)).toEqual([]);
    await transitionCustomer(testDb.db, org.partner.id, customerId, "upgrade");
    expect(await periodsOf(customerId)).toEqual([{ plan: "pro", open: true }]);
  });

  it("is idempotent", async () => {
    const customerId = await createTestCustomer(testDb.db, org.partner.id);
    await syncBillingPeriod(testDb.db, customerId);
    await syncBillingPeriod(testDb.db, customerId);
    expect(await periodsOf(customerId)).toEqual([{ plan: "basic", open: true }]);
  });

  it("opens missing periods for active customers written outside the services, once", async () => {
    const direct = await createBreachTestCustomer(testDb.db, org.partner.id, { status: "active", domains: ["direct.example"] });
    const inactive = await createBreachTestCustomer(testDb.db, org.partner.id, { status: "inactive", domains: ["gone.example"] });
    expect(await openMissingBillingPeriods(testDb.db)).toBeGreaterThanOrEqual(1);
    expect(await openMissingBillingPeriods(testDb.db)).toBe(0);
    const [period] = await testDb.db.customerBillingPeriod.findMany({ where: { customerId: direct.id } });
    expect(period).toMatchObject({ startedAt: direct.statusChangedAt, endedAt: null, partnerId: org.partner.id });
    expect(await periodsOf(inactive.id)).toEqual([]);
  });
});

describe("billing overview of a month", () => {
  const MONTH = "2026-03";
  const at = (day: string) => new Date(`${day}T00:00:00.000Z`);
  let overview: BillingOverview;
  let alphaId: string;
  let betaId: string;

  /** A customer of the partner whose billing periods are exactly the ones given (plan, from, to). */
  async function customerWithPeriods(partnerId: string, periods: Array<[string, string, string | null]>, billedFrom?: string) {
    const customerId = await createTestCustomer(testDb.db, partnerId, { billedFromDate: billedFrom ? at(billedFrom) : undefined });
    await testDb.db.customerBillingPeriod.deleteMany({ where: { customerId } });
    await testDb.db.customerBillingPeriod.createMany({
      data: periods.map(([plan, from, to]) => ({
        customerId,
        partnerId,
        planId: planIds[plan]!,
        startedAt: at(from),
        endedAt: to ? at(to) : null,
      })),
    });
    return customerId;
  }

  beforeAll(async () => {
    const distributorId = (await createTestOrg(testDb.db, "Billed")).distributor.id;
    await createBillingCode(testDb.db, { distributorId, code: "B-1", price: 2.5 });
    await createBillingCode(testDb.db, { distributorId, code: "P-1", price: 4 });
    alphaId = (await createPartner(testDb.db, { distributorId, name: 'Alpha, "the first"', account_reference: "=HYPERLINK(1)" })).id;
    betaId = (await createPartner(testDb.db, { distributorId, name: "Beta" })).id;
    await updatePartner(testDb.db, distributorId, alphaId, { basic_billing_code: "B-1", plus_billing_code: "P-1" });
    // set before partners' codes were checked against the distributor's (the service refuses it now)
    await testDb.db.partner.update({ where: { id: betaId }, data: { basicBillingCode: "NOT-A-CODE" } });
    // The partner of createTestOrg ("Billed partner") has customers in the month too, without codes.
    const billedPartner = await testDb.db.partner.findFirstOrThrow({ where: { distributorId, name: "Billed partner" } });

    // Alpha, basic: the whole month; part of it; since before the month and still open.
    await customerWithPeriods(alphaId, [["basic", "2026-02-01", "2026-04-01"]]);
    await customerWithPeriods(alphaId, [["basic", "2026-03-10", "2026-03-20"]]);
    await customerWithPeriods(alphaId, [["basic", "2025-12-24", null]]);
    // Billing started in the month: billed; starts after the month: not.
    await customerWithPeriods(alphaId, [["basic", "2026-03-01", null]], "2026-03-15");
    await customerWithPeriods(alphaId, [["basic", "2026-03-01", null]], "2026-04-01");
    // Moved from basic to plus in the month: billed once, on plus.
    await customerWithPeriods(alphaId, [
      ["basic", "2026-01-01", "2026-03-12"],
      ["plus", "2026-03-12", null],
    ]);
    // Left before the month began (at its first instant), or became active after it: not billed.
    await customerWithPeriods(alphaId, [["basic", "2026-01-01", "2026-03-01"]]);
    await customerWithPeriods(alphaId, [["plus", "2026-04-01", null]]);
    // Pro: Alpha has no pro billing code.
    await customerWithPeriods(alphaId, [["pro", "2026-03-31", null]]);
    // Beta's basic code is not one of the distributor's codes.
    await customerWithPeriods(betaId, [["basic", "2026-03-05", null]]);
    await customerWithPeriods(betaId, [["basic", "2026-03-05", "2026-03-06"]]);
    await customerWithPeriods(billedPartner.id, [["plus", "2026-03-05", null]]);
    // Another distributor's customer in the same month is not part of this overview.
    await customerWithPeriods(org.partner.id, [["basic", "2026-03-05", null]]);

    overview = await getBillingOverview(testDb.db, distributorId, MONTH);
  });

  it("counts each partner's customers per plan with the billing code and its price", async () => {
    expect(overview.from).toEqual(at("2026-03-01"));
    expect(overview.to).toEqual(at("2026-04-01"));
    const billedPartnerId = overview.lines.find((line) => line.partnerName === "Billed partner")!.partnerId;
    expect(overview.lines).toEqual([
      {
        partnerId: alphaId,
        partnerName: 'Alpha, "the first"',
        accountReference: "=HYPERLINK(1)",
        planType: "basic",
        planName: "Basic",
        billingCode: "B-1",
        unitPrice: 2.5,
        currency: "EUR",
        activeCustomers: 4,
        amount: 10,
      },
      {
        partnerId: alphaId,
        partnerName: 'Alpha, "the first"',
        accountReference: "=HYPERLINK(1)",
        planType: "plus",
        planName: "Plus",
        billingCode: "P-1",
        unitPrice: 4,
        currency: "EUR",
        activeCustomers: 1,
        amount: 4,
      },
      {
        partnerId: alphaId,
        partnerName: 'Alpha, "the first"',
        accountReference: "=HYPERLINK(1)",
        planType: "pro",
        planName: "Pro",
        billingCode: null,
        unitPrice: null,
        currency: null,
        activeCustomers: 1,
        amount: null,
      },
      {
        partnerId: betaId,
        partnerName: "Beta",
        accountReference: null,
        planType: "basic",
        planName: "Basic",
        billingCode: "NOT-A-CODE",
        unitPrice: null,
        currency: null,
        activeCustomers: 2,
        amount: null,
      },
      {
        partnerId: billedPartnerId,
        partnerName: "Billed partner",
        accountReference: null,
        planType: "plus",
        planName: "Plus",
        billingCode: null,
        unitPrice: null,
        currency: null,
        activeCustomers: 1,
        amount: null,
      },
    ]);
    expect(overview.totals).toEqual({
      activeCustomers: 9,
      amount: 14,
      unpricedCustomers: 4,
      byCurrency: [{ currency: "EUR", amount: 14 }],
    });
  });

  it("is empty for a month without active customers", async () => {
    const empty = await getBillingOverview(testDb.db, org.distributor.id, "2020-01");
    expect(empty.lines).toEqual([]);
    expect(empty.totals).toEqual({ activeCustomers: 0, amount: 0, unpricedCustomers: 0, byCurrency: [] });
  });

  it("refuses a month that is not YYYY-MM", async () => {
    for (const month of ["2026-13", "2026-3", "March", ""]) {
      await expect(getBillingOverview(testDb.db, org.distributor.id, month)).rejects.toThrow(
        "Validation failed: month: Month must be given as YYYY-MM",
      );
    }
  });

  it("exports the lines as CSV: quoted where needed, formulas defused, money with two decimals", () => {
    const csv = billingOverviewCsv(overview);
    const billedPartnerId = overview.lines.at(-1)!.partnerId;
    expect(csv).toBe(
      [
        "month,partner_id,partner_name,account_reference,plan,billing_code,unit_price,active_customers,amount,currency",
        `2026-03,${alphaId},"Alpha, ""the first""",'=HYPERLINK(1),basic,B-1,2.50,4,10.00,EUR`,
        `2026-03,${alphaId},"Alpha, ""the first""",'=HYPERLINK(1),plus,P-1,4.00,1,4.00,EUR`,
        `2026-03,${alphaId},"Alpha, ""the first""",'=HYPERLINK(1),pro,,,1,,`,
        `2026-03,${betaId},Beta,,basic,NOT-A-CODE,,2,,`,
        `2026-03,${billedPartnerId},Billed partner,,plus,,,1,,`,
        "",
      ].join("\r\n"),
    );
  });
});
