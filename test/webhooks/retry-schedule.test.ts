import { randomUUID } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import pg from "pg";
import { performAttempt } from "../../server/webhooks/delivery-engine/attempt";
import { deliverDueBatch } from "../../server/webhooks/delivery-engine/batch";
import { claimAttempts } from "../../server/webhooks/delivery-engine/claim";
import { ENDPOINT_HEALTH_JOB, ResultWriter } from "../../server/webhooks/delivery-engine/outcomes";
import { type EndpointInput, type Protocol } from "../../server/webhooks/endpoints";
import { routePendingEvents } from "../../server/webhooks/routing";
import { createEndpointFixture, deliveriesOf, drainWebhooks, recordTestEvent, type TestCustomer } from "../helpers/webhook-fixtures";
import { type TestReceiver } from "../helpers/webhook-receiver";
import { webhookTestBed } from "../helpers/webhook-test-bed";

const testDb = webhookTestBed();

const receiver = (...args: Parameters<typeof testDb.receiver>) => testDb.receiver(...args);

async function setup(target: TestReceiver, protocol: Protocol = "current", input: Partial<EndpointInput> = {}) {
  const { customer, endpointId } = await createEndpointFixture(testDb.db, target.url, {
    protocol,
    customer: { emails: ["a@acme.example"] },
    endpoint: { eventTypes: protocol === "current" ? ["customer.created", "customer.breach.found"] : ["email.added"], ...input },
  });
  return { customer, endpointId };
}

/** An event both protocols send: a monitored address added. */
const event = (customer: TestCustomer) =>
  recordTestEvent(testDb.db, customer, "customer.asset.added", {
    assets: [{ uuid: randomUUID(), type: "email", value: "b@acme.example" }],
  });

async function routeAndDeliverOnce() {
  await routePendingEvents(testDb.db);
  await deliverDueBatch(testDb.db);
}

async function healthNotices(endpointId: string) {
  const jobs = await testDb.db.job.findMany({ where: { kind: ENDPOINT_HEALTH_JOB }, orderBy: { createdAt: "asc" } });
  return jobs
    .map((job) => job.payload as { endpointId: string; change: string; at: string })
    .filter((payload) => payload.endpointId === endpointId);
}

const endpointRow = (id: string) => testDb.db.webhookEndpoint.findUniqueOrThrow({ where: { id } });

describe("what the receiver says", () => {
  it.each([429, 503])("a %i with Retry-After makes the next attempt wait at least that long, unscaled", async (status) => {
    const target = await receiver(() => ({ status, headers: { "retry-after": "120" } }));
    const { customer, endpointId } = await setup(target, "current", { eventTypes: ["customer.asset.added"] });
    await event(customer);
    const before = Date.now();
    await routeAndDeliverOnce();
    const [delivery] = await deliveriesOf(testDb.db, endpointId);
    expect(delivery).toMatchObject({ status: "pending", attemptCount: 1, lastError: `HTTP ${status}` });
    expect(delivery!.nextAttemptAt.getTime()).toBeGreaterThanOrEqual(before + 120_000);
    expect(delivery!.nextAttemptAt.getTime()).toBeLessThan(Date.now() + 121_000);
    // nothing is due now: another round makes no request
    await routeAndDeliverOnce();
    expect(target.requests).toHaveLength(1);
  });

  it("honours an HTTP date in Retry-After, and ignores Retry-After on other statuses", async () => {
    const at = new Date(Date.now() + 90_000);
    at.setMilliseconds(0);
    const target = await receiver((_request, index) =>
      index === 0 ? { status: 503, headers: { "retry-after": at.toUTCString() } } : { status: 500, headers: { "retry-after": "3600" } },
    );
    const { customer, endpointId } = await setup(target, "legacy");
    await event(customer);
    await routeAndDeliverOnce();
    let [delivery] = await deliveriesOf(testDb.db, endpointId);
    expect(delivery!.nextAttemptAt.getTime()).toBeGreaterThanOrEqual(at.getTime());

    await testDb.db.webhookDelivery.update({ where: { id: delivery!.id }, data: { nextAttemptAt: new Date() } });
    await routeAndDeliverOnce();
    [delivery] = await deliveriesOf(testDb.db, endpointId);
    expect(delivery).toMatchObject({ status: "pending", attemptCount: 2, lastError: "HTTP 500" });
    expect(delivery!.nextAttemptAt.getTime()).toBeLessThan(Date.now() + 1_000);
  });

  it.each<Protocol>(["current", "legacy"])(
    "a 410 Gone fails the delivery and disables the %s endpoint at once, with the reason kept",
    async (protocol) => {
      const target = await receiver(() => ({ status: 410 }));
      const { customer, endpointId } = await setup(
        target,
        protocol,
        protocol === "current" ? { eventTypes: ["customer.asset.added"] } : {},
      );
      await event(customer);
      await event(customer);
      await routeAndDeliverOnce();
      await drainWebhooks(testDb.db);

      const deliveries = await deliveriesOf(testDb.db, endpointId);
      expect(deliveries.map((d) => d.status)).toEqual(["failed", "failed"]);
      // each delivery claimed with the first made one request; none was tried again
      expect(target.requests.length).toBeLessThanOrEqual(2);
      expect(deliveries.every((d) => d.attemptCount <= 1)).toBe(true);
      const endpoint = await endpointRow(endpointId);
      expect(endpoint).toMatchObject({ enabled: false, disabledKind: "gone" });
      expect(endpoint.disabledReason).toBe("Disabled because the receiver answered 410 Gone: HTTP 410");
      expect(endpoint.disabledAt).toBeInstanceOf(Date);
      expect((await healthNotices(endpointId)).map((notice) => notice.change)).toEqual(["disabled"]);
      expect((await healthNotices(endpointId))[0]!.at).toBe(endpoint.disabledAt!.toISOString());
    },
  );

  it("a 410 to a test delivery leaves the endpoint as it is", async () => {
    const target = await receiver(() => ({ status: 410 }));
    const { endpointId } = await setup(target, "current");
    const { sendTestEvent } = await import("../../server/webhooks/delivery-log");
    const org = await testDb.db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpointId }, select: { partnerId: true } });
    await sendTestEvent(testDb.db, { partnerId: org.partnerId! }, "current", endpointId, undefined);
    await drainWebhooks(testDb.db);
    expect(await endpointRow(endpointId)).toMatchObject({ enabled: true, disabledKind: null, consecutiveFailures: 0 });
    expect(await healthNotices(endpointId)).toEqual([]);
  });
});

describe("endpoint health", () => {
  it("tells the owner once when an endpoint starts failing, and again only after it recovered and failed anew", async () => {
    let failing = true;
    const target = await receiver(() => (failing ? { status: 500 } : { status: 200 }));
    const { customer, endpointId } = await setup(target, "legacy");
    await event(customer);
    await drainWebhooks(testDb.db);
    let endpoint = await endpointRow(endpointId);
    expect(endpoint).toMatchObject({ enabled: true, consecutiveFailures: 1, lastSuccessAt: null });
    expect(endpoint.failingSince).toBeInstanceOf(Date);
    const firstRun = endpoint.failingSince!;

    await event(customer);
    await drainWebhooks(testDb.db);
    endpoint = await endpointRow(endpointId);
    expect(endpoint.consecutiveFailures).toBe(2);
    expect(endpoint.failingSince).toEqual(firstRun);
    expect(await healthNotices(endpointId)).toEqual([{ endpointId, change: "failing", at: firstRun.toISOString() }]);

    failing = false;
    await event(customer);
    await drainWebhooks(testDb.db);
    endpoint = await endpointRow(endpointId);
    expect(endpoint).toMatchObject({ consecutiveFailures: 0, failingSince: null });
    expect(endpoint.lastSuccessAt).toBeInstanceOf(Date);

    failing = true;
    await event(customer);
    await drainWebhooks(testDb.db);
    endpoint = await endpointRow(endpointId);
    const notices = await healthNotices(endpointId);
    expect(notices.map((notice) => [notice.change, notice.at])).toEqual([
      ["failing", firstRun.toISOString()],
      ["failing", endpoint.failingSince!.toISOString()],
    ]);
  });

  it("disables after 20 failed deliveries in a row with kind failing, and queues one disabled notice", async () => {
    const target = await receiver(() => ({ status: 500 }));
    const { customer, endpointId } = await setup(target, "current", { eventTypes: ["customer.asset.added"], maxAttempts: 1 });
    for (let i = 0; i < 21; i++) await event(customer);
    await drainWebhooks(testDb.db);
    const endpoint = await endpointRow(endpointId);
    expect(endpoint).toMatchObject({ enabled: false, disabledKind: "failing" });
    // a delivery claimed in the same batch as the 20th may finish after it and still count
    expect(endpoint.consecutiveFailures).toBeGreaterThanOrEqual(20);
    expect(endpoint.disabledReason).toBe("Disabled after 20 failed deliveries in a row; last error: HTTP 500");
    expect((await healthNotices(endpointId)).map((notice) => notice.change)).toEqual(["failing", "disabled"]);
  });
});

describe("endpoint health with two writers", () => {
  it.runIf(Boolean(process.env.TEST_DATABASE_URL))(
    "adds up the failures another process records for the endpoint at the same moment",
    async () => {
      const target = await receiver(() => ({ status: 500 }));
      const { customer, endpointId } = await setup(target, "current", { eventTypes: ["customer.asset.added"], maxAttempts: 1 });
      await event(customer);
      await routePendingEvents(testDb.db);
      const { started } = await claimAttempts(testDb.db, { limit: 10 });
      expect(started).toHaveLength(1);

      // another process holds the endpoint's row while it records 5 failures of its own
      const other = new pg.Client({ connectionString: testDb.url });
      await other.connect();
      try {
        await other.query("BEGIN");
        await other.query("UPDATE webhook_endpoints SET consecutive_failures = consecutive_failures + 5 WHERE id = $1", [endpointId]);
        const recording = performAttempt(testDb.db, new ResultWriter(testDb.db), started[0]!);
        await vi.waitFor(
          async () => {
            const { rows } = await other.query(
              "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()",
            );
            expect(rows[0].n).toBeGreaterThan(0);
          },
          { timeout: 10_000, interval: 20 },
        );
        await other.query("COMMIT");
        await recording;
      } finally {
        await other.end();
      }
      expect((await endpointRow(endpointId)).consecutiveFailures).toBe(6);
    },
  );
});

describe("on a real clock, scaled down", () => {
  it("spaces the attempts of a round as the schedule says (WEBHOOK_RETRY_BASE_MS=30: 5 min -> 300 ms, 30 min -> 1.8 s)", async () => {
    vi.stubEnv("WEBHOOK_RETRY_BASE_MS", "30");
    const target = await receiver((_request, index) => (index < 2 ? { status: 503 } : { status: 204 }));
    const { customer, endpointId } = await setup(target, "legacy");
    await event(customer);
    const deadline = Date.now() + 20_000;
    while (target.requests.length < 3 && Date.now() < deadline) {
      await routeAndDeliverOnce();
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const [delivery] = await deliveriesOf(testDb.db, endpointId);
    expect(delivery!.status).toBe("delivered");
    const starts = delivery!.attempts.map((attempt) => attempt.startedAt.getTime());
    // legacy rounds have 4 attempts: 5 min, 30 min, 2 h -> 300 ms, 1.8 s, 7.2 s at this scale
    expect(starts[1]! - starts[0]!).toBeGreaterThanOrEqual(0.9 * 300);
    expect(starts[2]! - starts[1]!).toBeGreaterThanOrEqual(0.9 * 1_800);
    expect(starts[2]! - starts[1]!).toBeGreaterThan(3 * (starts[1]! - starts[0]!));
  });
});
