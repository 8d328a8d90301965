import { beforeAll, describe, expect, it } from "vitest";
import { issueApiKey } from "../../server/auth/api-keys";
import type { CustomerStatus } from "../../server/db/generated/enums";
import { createPartner } from "../../server/distributors/partners";
import { createTestCustomer } from "../helpers/customers";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { restTestBed } from "../helpers/rest";

const { testDb, server } = restTestBed();
let orgA: TestOrg;
let orgB: TestOrg;
/** Another partner of A's own distributor. */
let siblingHeaders: Record<string, string>;
const customersOfA = new Map<CustomerStatus, string>();

beforeAll(async () => {
  orgA = await createTestOrg(testDb.db, "A");
  orgB = await createTestOrg(testDb.db, "B");
  const sibling = await createPartner(testDb.db, { distributorId: orgA.distributor.id, name: "A sibling" });
  const siblingKey = await issueApiKey(testDb.db, { partnerId: sibling.id });
  siblingHeaders = { "SW-PARTNER-ID": sibling.id, "SW-API-KEY": siblingKey.apiKey };
  for (const status of ["prospect", "active", "inactive", "dormant"] as const) {
    const id = await createTestCustomer(testDb.db, orgA.partner.id, { status: status === "prospect" ? "prospect" : "active" });
    await testDb.db.customer.update({ where: { id }, data: { status } });
    customersOfA.set(status, id);
  }
});

const NOT_OWNED = "Customer not found or does not belong to partner";
type Call = (id: string, headers: Record<string, string>) => ReturnType<typeof server.api.get>;

/** Every customer endpoint of this issue, with the not-found text it answers. */
const ENDPOINTS: Array<[string, Call, string]> = [
  ["POST offboard", (id, h) => server.api.post("/api/v1/integrations/customer/offboard", { customerId: id }, h), NOT_OWNED],
  ["POST upgrade", (id, h) => server.api.post("/api/v1/integrations/customer/upgrade", { customerId: id }, h), NOT_OWNED],
  ["POST downgrade", (id, h) => server.api.post("/api/v1/integrations/customer/downgrade", { customerId: id }, h), NOT_OWNED],
  ["POST reactivate", (id, h) => server.api.post("/api/v1/integrations/customer/reactivate", { customerId: id }, h), "Customer not found"],
  ["GET info", (id, h) => server.api.get(`/api/v1/integrations/customer/${id}/info`, h), NOT_OWNED],
  ["PATCH info", (id, h) => server.api.patch(`/api/v1/integrations/customer/${id}/info`, { companyName: "Hijacked" }, h), NOT_OWNED],
  ["GET assets", (id, h) => server.api.get(`/api/v1/integrations/customer/${id}/assets`, h), NOT_OWNED],
  ["PATCH assets", (id, h) => server.api.patch(`/api/v1/integrations/customer/${id}/assets`, { domains: [], emails: [] }, h), NOT_OWNED],
  ["GET threat score", (id, h) => server.api.get(`/api/v1/integrations/customer/${id}/threat-score`, h), NOT_OWNED],
];

async function snapshot() {
  return testDb.db.customer.findMany({
    where: { partnerId: orgA.partner.id },
    orderBy: { id: "asc" },
    include: { assets: { orderBy: { id: "asc" } }, portalUser: true },
  });
}

describe("partner B against partner A's customers", () => {
  it.each(ENDPOINTS)("%s answers 404 for each of A's customers, whatever its status, and changes nothing", async (_name, call, error) => {
    const before = await snapshot();
    const eventsBefore = await testDb.db.outboxEvent.count();
    for (const [status, id] of customersOfA) {
      const res = await call(id, orgB.partner.headers);
      expect({ status, code: res.status, body: res.body }).toEqual({ status, code: 404, body: { success: false, error } });
    }
    expect(await snapshot()).toEqual(before);
    expect(await testDb.db.outboxEvent.count()).toBe(eventsBefore);
  });

  it.each(ENDPOINTS)("%s answers a foreign customer exactly like an unknown id", async (_name, call) => {
    const foreign = await call(customersOfA.get("active")!, orgB.partner.headers);
    const unknown = await call(crypto.randomUUID(), orgB.partner.headers);
    expect(foreign.status).toBe(unknown.status);
    expect(foreign.body).toEqual(unknown.body);
  });

  it.each(ENDPOINTS)("%s answers 404 to a sibling partner of the same distributor", async (_name, call, error) => {
    const res = await call(customersOfA.get("active")!, siblingHeaders);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, error });
  });

  it.each(ENDPOINTS.slice(0, 3))("%s answers 404 to B's distributor acting for B", async (_name, call, error) => {
    const res = await call(customersOfA.get("active")!, orgB.onBehalfHeaders);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, error });
  });

  it("the list and analytics of B show nothing of A", async () => {
    const list = await server.api.get("/api/v1/integrations/partner/customers", orgB.partner.headers);
    expect(list.body.customers).toEqual([]);
    const analytics = await server.api.get("/api/v1/integrations/partner/analytics", orgB.partner.headers);
    expect(analytics.body.data.totalCustomers).toBe(0);
  });

  it("A itself still reaches every one of its customers", async () => {
    for (const id of customersOfA.values()) {
      const res = await server.api.get(`/api/v1/integrations/customer/${id}/info`, orgA.partner.headers);
      expect(res.status).toBe(200);
    }
  });
});
