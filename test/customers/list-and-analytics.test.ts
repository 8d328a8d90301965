import { beforeAll, describe, expect, it } from "vitest";
import { getPartnerAnalytics } from "../../server/customers/analytics";
import { listPartnerCustomers } from "../../server/customers/list";
import { addCustomerBreach, createTestBreach, createTestCustomer } from "../helpers/customers";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { restTestBed } from "../helpers/rest";

const { testDb, server } = restTestBed();
/** 105 customers made directly (for the pagination edges). */
let many: TestOrg;
/** A handful of onboarded customers with assets, breaches and statuses. */
let org: TestOrg;
let otherOrg: TestOrg;
let manyIdsNewestFirst: string[];

const LIST = "/api/v1/integrations/partner/customers";
const ANALYTICS = "/api/v1/integrations/partner/analytics";
const MANY = 105;

beforeAll(async () => {
  many = await createTestOrg(testDb.db, "Many");
  org = await createTestOrg(testDb.db, "Alpha");
  otherOrg = await createTestOrg(testDb.db, "Beta");
  const plan = await testDb.db.plan.findFirstOrThrow({ where: { isSystemDefault: true } });
  const base = Date.UTC(2026, 0, 1);
  // pairs of customers share a creation time, so the id decides their order
  await testDb.db.customer.createMany({
    data: Array.from({ length: MANY }, (_, i) => ({
      partnerId: many.partner.id,
      reference: `M-${String(i).padStart(3, "0")}`,
      companyName: `Company ${i}`,
      contactEmail: `c${i}@many.example`,
      currencyCode: "USD",
      planId: plan.id,
      status: i % 5 === 0 ? ("prospect" as const) : ("active" as const),
      createdAt: new Date(base + Math.floor(i / 2) * 1000),
    })),
  });
  const rows = await testDb.db.customer.findMany({ where: { partnerId: many.partner.id }, select: { id: true, createdAt: true } });
  manyIdsNewestFirst = rows.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1)).map((row) => row.id);
});

describe("GET /api/v1/integrations/partner/customers: pagination", () => {
  it("defaults to page 1 of 20, newest first, ties broken by id", async () => {
    const res = await server.api.get(LIST, many.partner.headers);
    expect(res.status).toBe(200);
    expect(res.body.pagination).toEqual({ totalCount: MANY, page: 1, pageSize: 20, hasNextPage: true });
    expect(res.body.customers.map((c: { customerId: string }) => c.customerId)).toEqual(manyIdsNewestFirst.slice(0, 20));
  });

  it.each([
    [1, 1, 1, true],
    [1, 100, 100, true],
    [2, 100, 5, false],
    [6, 20, 5, false],
    [5, 20, 20, true],
    [7, 20, 0, false],
    [105, 1, 1, false],
  ])("page %i of %i: %i customers, hasNextPage %s", async (page, pageSize, count, hasNextPage) => {
    const res = await server.api.get(`${LIST}?page=${page}&pageSize=${pageSize}`, many.partner.headers);
    expect(res.status).toBe(200);
    expect(res.body.pagination).toEqual({ totalCount: MANY, page, pageSize, hasNextPage });
    const ids = res.body.customers.map((c: { customerId: string }) => c.customerId);
    expect(ids).toEqual(manyIdsNewestFirst.slice((page - 1) * pageSize, (page - 1) * pageSize + pageSize));
    expect(ids).toHaveLength(count);
  });

  it("walks every customer exactly once page by page", async () => {
    const seen: string[] = [];
    for (let page = 1; ; page++) {
      const { body } = await server.api.get(`${LIST}?page=${page}&pageSize=7`, many.partner.headers);
      seen.push(...body.customers.map((c: { customerId: string }) => c.customerId));
      if (!body.pagination.hasNextPage) break;
    }
    expect(seen).toEqual(manyIdsNewestFirst);
  });

  it("filters by status, with totalCount over the filter", async () => {
    const res = await server.api.get(`${LIST}?status=prospect&pageSize=100`, many.partner.headers);
    expect(res.body.pagination).toEqual({ totalCount: 21, page: 1, pageSize: 100, hasNextPage: false });
    expect(res.body.customers.every((c: { customerStatus: string }) => c.customerStatus === "prospect")).toBe(true);
    const empty = await server.api.get(`${LIST}?status=dormant`, many.partner.headers);
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ success: true, customers: [], pagination: { totalCount: 0, page: 1, pageSize: 20, hasNextPage: false } });
  });

  it.each([
    ["pageSize=0", "Validation failed: pageSize: Too small: expected number to be >=1"],
    ["pageSize=101", "Validation failed: pageSize: Too big: expected number to be <=100"],
    ["pageSize=2.5", "Validation failed: pageSize: Invalid input: expected int, received number"],
    ["page=0", "Validation failed: page: Too small: expected number to be >=1"],
    ["page=-1", "Validation failed: page: Too small: expected number to be >=1"],
    ["page=abc", "Validation failed: page: Invalid input: expected number, received string"],
    ["page=", "Validation failed: page: Invalid input: expected number, received string"],
    ["status=deleted", "Validation failed: status: Status must be one of active, inactive, dormant, prospect"],
  ])("refuses %s with 400", async (query, error) => {
    const res = await server.api.get(`${LIST}?${query}`, many.partner.headers);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error });
  });
});

describe("list items and analytics", () => {
  let breachedId: string;
  let plainId: string;

  beforeAll(async () => {
    plainId = await createTestCustomer(testDb.db, org.partner.id, { assetsDomains: ["plain.example"], assetsEmails: undefined });
    breachedId = await createTestCustomer(testDb.db, org.partner.id, {
      contactEmail: "boss@breached.example",
      assetsDomains: ["breached.example", "alt.example"],
      assetsEmails: ["b@breached.example", "a@breached.example"],
    });
    const [one, two] = [await createTestBreach(testDb.db), await createTestBreach(testDb.db)];
    await addCustomerBreach(testDb.db, breachedId, one.id);
    await addCustomerBreach(testDb.db, breachedId, two.id, { resolved: true });
    const prospect = await createTestCustomer(testDb.db, org.partner.id, { status: "prospect", assetsEmails: ["p@p.example"] });
    await addCustomerBreach(testDb.db, prospect, one.id);
    const inactive = await createTestCustomer(testDb.db, org.partner.id, { assetsDomains: ["gone.example"] });
    await testDb.db.customer.update({ where: { id: inactive }, data: { status: "inactive" } });
    const old = await createTestCustomer(testDb.db, org.partner.id, { assetsDomains: ["old.example"], assetsEmails: undefined });
    await testDb.db.customer.update({ where: { id: old }, data: { createdAt: new Date(Date.now() - 31 * 86_400_000) } });
    // another partner's customer with a breach must not count
    const foreign = await createTestCustomer(testDb.db, otherOrg.partner.id);
    await addCustomerBreach(testDb.db, foreign, one.id);
  });

  it("items carry the documented fields: breachCount includes resolved instances; emails exclude the contact e-mail", async () => {
    const res = await server.api.get(LIST, org.partner.headers);
    expect(res.body.pagination.totalCount).toBe(5);
    const breached = res.body.customers.find((c: { customerId: string }) => c.customerId === breachedId);
    expect(breached).toEqual({
      customerId: breachedId,
      customerRef: expect.any(String),
      customerStatus: "active",
      breachStatus: true,
      breachCount: 2,
      domains: ["alt.example", "breached.example"],
      emails: ["a@breached.example", "b@breached.example"],
    });
    const plain = res.body.customers.find((c: { customerId: string }) => c.customerId === plainId);
    expect(plain).toMatchObject({ breachStatus: false, breachCount: 0, domains: ["plain.example"], emails: [] });
  });

  it("shows only the partner's customers, also to the distributor acting for it", async () => {
    const own = await listPartnerCustomers(testDb.db, org.partner.id, { page: 1, pageSize: 100 });
    const onBehalf = await server.api.get(`${LIST}?pageSize=100`, org.onBehalfHeaders);
    expect(onBehalf.status).toBe(200);
    expect(onBehalf.body.customers.map((c: { customerId: string }) => c.customerId)).toEqual(own.customers.map((c) => c.customerId));
    const other = await server.api.get(`${LIST}?pageSize=100`, otherOrg.partner.headers);
    expect(other.body.pagination.totalCount).toBe(1);
    const foreignDistributor = await server.api.get(LIST, { "SW-PARTNER-ID": org.partner.id, "SW-API-KEY": otherOrg.distributor.apiKey });
    expect(foreignDistributor.status).toBe(401);
    expect(foreignDistributor.body).toEqual({ success: false, error: "Failed to verify org API key" });
  });

  it("analytics counts with the database what the partner has", async () => {
    expect(await getPartnerAnalytics(testDb.db, org.partner.id)).toEqual({
      totalCustomers: 5,
      activeCustomers: 3,
      newCustomerLast30Days: 4,
      // active customers only: plain (1 domain), breached (2 domains, 2 e-mails), old (1 domain, 0 e-mails)
      totalMonitoredDomains: 4,
      totalMonitoredEmails: 2,
      totalBreachesDetected: 3,
    });
    const res = await server.api.get(ANALYTICS, org.partner.headers);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: {
        totalCustomers: 5,
        activeCustomers: 3,
        newCustomerLast30Days: 4,
        totalMonitoredDomains: 4,
        totalMonitoredEmails: 2,
        totalBreachesDetected: 3,
      },
    });
  });

  it("analytics answers zeros for a partner without customers, and accepts the distributor's key", async () => {
    const empty = await createTestOrg(testDb.db, "Empty");
    const res = await server.api.get(ANALYTICS, empty.onBehalfHeaders);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      totalCustomers: 0,
      activeCustomers: 0,
      newCustomerLast30Days: 0,
      totalMonitoredDomains: 0,
      totalMonitoredEmails: 0,
      totalBreachesDetected: 0,
    });
  });

  it("analytics and the list require credentials", async () => {
    for (const path of [ANALYTICS, LIST]) {
      const missing = await server.api.get(path, {});
      expect(missing.status).toBe(401);
      expect(missing.body).toEqual({ success: false, error: "Partner ID and API key are required in headers" });
      const wrong = await server.api.get(path, { ...org.partner.headers, "SW-API-KEY": otherOrg.partner.apiKey });
      expect(wrong.status).toBe(401);
      expect(wrong.body).toEqual({ success: false, error: "Failed to verify org API key" });
    }
  });
});
