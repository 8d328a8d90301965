import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { SCAN_CUSTOMER_JOB } from "../../server/customers/scan-requests";
import type { CustomerStatus } from "../../server/db/generated/enums";
import { TRANSITIONS, transitionCustomer, type TransitionName } from "../../server/customers/lifecycle";
import { consumeMagicLink, createMagicLink } from "../../server/portal/magic-links";
import { addCustomerBreach, createTestBreach, createTestCustomer } from "../helpers/customers";
import { failInsertsInto } from "../helpers/failures";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { restTestBed } from "../helpers/rest";

const { testDb, server } = restTestBed();
let org: TestOrg;

beforeAll(async () => {
  org = await createTestOrg(testDb.db);
});
beforeEach(async () => {
  // as if the worker had run every queued scan: a new request queues a new job
  await testDb.db.$executeRaw`UPDATE jobs SET status = 'succeeded', dedupe_key = NULL, finished_at = now()`;
});

const STATUSES: CustomerStatus[] = ["prospect", "active", "inactive", "dormant"];
const path = (name: TransitionName) => `/api/v1/integrations/customer/${name}`;

/** A customer of the test partner in the given status (dormant and inactive set directly). */
async function customerIn(status: CustomerStatus): Promise<string> {
  const customerId = await createTestCustomer(testDb.db, org.partner.id, { status: status === "prospect" ? "prospect" : "active" });
  if (status === "inactive" || status === "dormant") await testDb.db.customer.update({ where: { id: customerId }, data: { status } });
  await testDb.db.$executeRaw`UPDATE jobs SET status = 'succeeded', dedupe_key = NULL, finished_at = now()`;
  return customerId;
}

async function statusOf(customerId: string) {
  return (await testDb.db.customer.findUniqueOrThrow({ where: { id: customerId } })).status;
}

async function eventsOf(customerId: string, type: string) {
  return testDb.db.outboxEvent.findMany({ where: { customerId, type } });
}

async function pendingScans(customerId: string) {
  return testDb.db.$queryRaw<Array<{ payload: { reason: string } }>>`
    SELECT payload FROM jobs WHERE kind = ${SCAN_CUSTOMER_JOB} AND status = 'pending' AND payload->>'customerId' = ${customerId}`;
}

describe("the transition table covers every status", () => {
  it.each(Object.entries(TRANSITIONS))("%s starts from some statuses and refuses all the others", (_name, transition) => {
    const covered = [...transition.from, ...Object.keys(transition.refusals)].sort();
    expect(covered).toEqual([...STATUSES].sort());
  });
});

/** The lifecycle of docs/customers.md: [transition, from, expected status or refusal]. */
const TABLE: Array<[TransitionName, CustomerStatus, { to: CustomerStatus } | { status: number; error: string }]> = [
  ["upgrade", "prospect", { to: "active" }],
  ["upgrade", "active", { status: 409, error: "Customer is already active" }],
  ["upgrade", "inactive", { status: 422, error: "Customer cannot be upgraded: customer is not a prospect" }],
  ["upgrade", "dormant", { status: 422, error: "Customer cannot be upgraded: customer is not a prospect" }],
  ["downgrade", "active", { to: "prospect" }],
  ["downgrade", "prospect", { status: 409, error: "Customer is already a prospect" }],
  ["downgrade", "inactive", { status: 422, error: "Customer cannot be downgraded: customer is not active" }],
  ["downgrade", "dormant", { status: 422, error: "Customer cannot be downgraded: customer is not active" }],
  ["offboard", "active", { to: "inactive" }],
  ["offboard", "prospect", { to: "inactive" }],
  ["offboard", "dormant", { to: "inactive" }],
  ["offboard", "inactive", { status: 409, error: "Customer is already inactive" }],
  ["reactivate", "inactive", { to: "active" }],
  ["reactivate", "active", { status: 409, error: "Customer is already active" }],
  ["reactivate", "prospect", { status: 422, error: "Customer cannot be reactivated: customer is not inactive" }],
  ["reactivate", "dormant", { status: 422, error: "Customer cannot be reactivated: customer is not inactive" }],
];

const SUCCESS_MESSAGES: Record<TransitionName, string> = {
  offboard: "Customer offboarded successfully",
  reactivate: "Customer reactivated successfully",
  upgrade: "Customer upgraded successfully",
  downgrade: "Customer downgraded successfully",
};

describe.each(TABLE)("%s from %s", (name, from, outcome) => {
  it("over HTTP: the exact answer, the new status, events and scans", async () => {
    const customerId = await customerIn(from);
    const eventsBefore = await testDb.db.outboxEvent.count({ where: { customerId } });
    const res = await server.api.post(path(name), { customerId }, org.partner.headers);
    if ("to" in outcome) {
      expect(res.status).toBe(200);
      expect(res.body).toEqual(
        name === "offboard"
          ? { success: true, message: SUCCESS_MESSAGES.offboard }
          : { success: true, message: SUCCESS_MESSAGES[name], customerId, status: outcome.to },
      );
      expect(await statusOf(customerId)).toBe(outcome.to);
      const deleted = await eventsOf(customerId, "customer.deleted");
      expect(deleted).toHaveLength(name === "offboard" ? 1 : 0);
      const scans = await pendingScans(customerId);
      const scanReason = name === "upgrade" || name === "reactivate" ? name : undefined;
      expect(scans.map((job) => job.payload.reason)).toEqual(scanReason ? [scanReason] : []);
    } else {
      expect(res.status).toBe(outcome.status);
      expect(res.body).toEqual({ success: false, error: outcome.error });
      expect(await statusOf(customerId)).toBe(from);
      expect(await testDb.db.outboxEvent.count({ where: { customerId } })).toBe(eventsBefore);
      expect(await pendingScans(customerId)).toEqual([]);
    }
  });
});

describe("transitionCustomer (service)", () => {
  it("offboarding writes customer.deleted with the customer's reference shape", async () => {
    const customerId = await customerIn("active");
    await transitionCustomer(testDb.db, org.partner.id, customerId, "offboard");
    const [event] = await eventsOf(customerId, "customer.deleted");
    expect(event).toMatchObject({ partnerId: org.partner.id, payload: { customer: { uuid: customerId, name: "Acme Ltd" } } });
    expect(Object.keys((event!.payload as { customer: object }).customer).sort()).toEqual(["name", "reference", "uuid"]);
  });

  it("keeps billing, plan, assets and breach records through every transition", async () => {
    const customerId = await customerIn("active");
    const breach = await createTestBreach(testDb.db);
    await addCustomerBreach(testDb.db, customerId, breach.id, { resolved: true });
    await testDb.db.customer.update({ where: { id: customerId }, data: { threatScore: 37, firstScannedAt: new Date() } });
    const snapshot = async () => {
      const customer = await testDb.db.customer.findUniqueOrThrow({
        where: { id: customerId },
        include: { assets: { orderBy: { value: "asc" } }, breaches: true, portalUser: true },
      });
      const { status: _status, statusChangedAt: _changed, updatedAt: _updated, ...kept } = customer;
      return kept;
    };
    const before = await snapshot();
    for (const name of ["downgrade", "upgrade", "offboard", "reactivate"] as const) {
      await transitionCustomer(testDb.db, org.partner.id, customerId, name);
      expect(await snapshot()).toEqual(before);
    }
    expect(await statusOf(customerId)).toBe("active");
  });

  it("records when the status changed", async () => {
    const customerId = await customerIn("active");
    const before = await testDb.db.customer.findUniqueOrThrow({ where: { id: customerId } });
    await transitionCustomer(testDb.db, org.partner.id, customerId, "downgrade");
    const after = await testDb.db.customer.findUniqueOrThrow({ where: { id: customerId } });
    expect(after.statusChangedAt.getTime()).toBeGreaterThanOrEqual(before.statusChangedAt.getTime());
    expect(after.statusChangedAt).not.toEqual(before.statusChangedAt);
  });

  it("lets only one of two concurrent offboards succeed, with one customer.deleted", async () => {
    const customerId = await customerIn("active");
    const results = await Promise.allSettled([
      transitionCustomer(testDb.db, org.partner.id, customerId, "offboard"),
      transitionCustomer(testDb.db, org.partner.id, customerId, "offboard"),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const rejected = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(rejected.reason).toMatchObject({ status: 409, message: "Customer is already inactive" });
    expect(await eventsOf(customerId, "customer.deleted")).toHaveLength(1);
  });

  it("writes no event and changes no status when the transaction fails", async () => {
    const customerId = await customerIn("active");
    const restore = await failInsertsInto(testDb.db, "outbox_events");
    try {
      await expect(transitionCustomer(testDb.db, org.partner.id, customerId, "offboard")).rejects.toThrow(/injected failure/);
    } finally {
      await restore();
    }
    expect(await statusOf(customerId)).toBe("active");
    expect(await eventsOf(customerId, "customer.deleted")).toEqual([]);
  });
});

describe("offboarding and the portal", () => {
  const liveLinks = async (customerId: string) => {
    const [row] = await testDb.db.$queryRaw<Array<{ count: number }>>`
      SELECT count(*)::int AS count FROM magic_link_tokens t JOIN portal_users u ON u.id = t.portal_user_id
      WHERE u.customer_id = ${customerId}::uuid AND t.used_at IS NULL AND t.expires_at > now()`;
    return row!.count;
  };

  it("offboarding over the REST API ends the customer's portal sessions and voids its unused links (the step the portal registers)", async () => {
    const customerId = await customerIn("active");
    const { url } = await createMagicLink(testDb.db, org.partner.id, customerId);
    const signedIn = await consumeMagicLink(testDb.db, new URL(url).searchParams.get("token_hash")!);
    if (!signedIn.ok) throw new Error(`sign-in refused: ${signedIn.reason}`);
    await createMagicLink(testDb.db, org.partner.id, customerId);
    expect(await liveLinks(customerId)).toBe(1);

    expect((await server.api.post(path("offboard"), { customerId }, org.partner.headers)).status).toBe(200);
    const session = await testDb.db.portalSession.findUniqueOrThrow({ where: { id: signedIn.signIn.sessionId } });
    expect(session.endReason).toBe("offboarded");
    expect(session.endedAt).not.toBeNull();
    expect(await liveLinks(customerId)).toBe(0);
  });
});

describe("lifecycle endpoints: callers, validation and failures", () => {
  it.each(["offboard", "upgrade", "downgrade"] as const)("%s accepts the distributor's key on behalf of its partner", async (name) => {
    const customerId = await customerIn(name === "upgrade" ? "prospect" : "active");
    const res = await server.api.post(path(name), { customerId }, org.onBehalfHeaders);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
  });

  it("reactivate refuses the distributor's key", async () => {
    const customerId = await customerIn("inactive");
    const res = await server.api.post(path("reactivate"), { customerId }, org.onBehalfHeaders);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, error: "Failed to verify org API key" });
    expect(await statusOf(customerId)).toBe("inactive");
  });

  it.each(Object.keys(TRANSITIONS) as TransitionName[])("%s requires the headers", async (name) => {
    const res = await server.api.post(path(name), { customerId: crypto.randomUUID() }, {});
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, error: "Partner ID and API key are required in headers" });
  });

  it.each([
    ["offboard", "Customer not found or does not belong to partner"],
    ["upgrade", "Customer not found or does not belong to partner"],
    ["downgrade", "Customer not found or does not belong to partner"],
    ["reactivate", "Customer not found"],
  ] as const)("%s answers an unknown customer with 404 '%s'", async (name, error) => {
    const res = await server.api.post(path(name), { customerId: crypto.randomUUID() }, org.partner.headers);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, error });
  });

  it.each(Object.keys(TRANSITIONS) as TransitionName[])("%s validates customerId", async (name) => {
    for (const body of [{}, { customerId: "" }, { customerId: null }]) {
      const res = await server.api.post(path(name), body, org.partner.headers);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ success: false, error: "Validation failed: customerId: Customer ID is required" });
    }
    const malformed = await server.api.post(path(name), { customerId: "cust-1" }, org.partner.headers);
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ success: false, error: "Validation failed: customerId: Customer ID must be a valid UUID" });
  });

  it.each([
    ["offboard", "Invalid JSON in request body"],
    ["reactivate", "Invalid JSON in request body"],
    ["upgrade", "Validation failed: customerId: Customer ID is required"],
    ["downgrade", "Validation failed: customerId: Customer ID is required"],
  ] as const)("%s answers invalid JSON with 400 '%s'", async (name, error) => {
    const res = await server.api.post(path(name), "{customerId:", org.partner.headers);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error });
  });

  it("works on the unversioned paths of existing clients", async () => {
    const customerId = await customerIn("active");
    expect((await server.api.post("/api/integrations/customer/offboard", { customerId }, org.partner.headers)).status).toBe(200);
    const res = await server.api.post("/api/integrations/customer/reactivate", { customerId }, org.partner.headers);
    expect(res.body).toEqual({ success: true, message: "Customer reactivated successfully", customerId, status: "active" });
  });

  it.each([
    ["offboard", "Failed to offboard customer", "active", "outbox_events"],
    ["upgrade", "Failed to upgrade customer", "prospect", "jobs"],
    ["reactivate", "Failed to reactivate customer", "inactive", "jobs"],
  ] as const)("%s answers an unexpected failure with 500 '%s'", async (name, error, from, table) => {
    const customerId = await customerIn(from);
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const restore = await failInsertsInto(testDb.db, table);
    try {
      const res = await server.api.post(path(name), { customerId }, org.partner.headers);
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ success: false, error });
    } finally {
      await restore();
      stderr.mockRestore();
    }
    expect(await statusOf(customerId)).toBe(from);
  });
});
