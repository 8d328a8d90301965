import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { requeueDelivery, sendTestEvent } from "../../server/webhooks/delivery-log";
import { createEndpoint } from "../../server/webhooks/endpoints";
import { findVisibleEndpoint, listPartnerEndpoints, type EndpointState } from "../../server/webhooks/staff-view";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { createTestCustomer, deliveriesOf, drainWebhooks, recordTestEvent, type TestCustomer } from "../helpers/webhook-fixtures";
import { startReceiver, type TestReceiver } from "../helpers/webhook-receiver";

/**
 * An endpoint's health says what happens (issue 27 item 8): failing from the first failed
 * attempt, not only once a delivery has used up its attempts an hour later; and "retry now" on a
 * delivery that waits for its next attempt attempts it now.
 */
let testDb: TestDatabase;
let org: TestOrg;
let customer: TestCustomer;
let receiver: TestReceiver;
let status = 500;
/** The owner's signing secret: a current-protocol receiver signs its 2xx answer with it. */
let token = "";

beforeAll(async () => {
  testDb = await createTestDatabase();
  vi.stubEnv("WEBHOOK_ALLOW_PRIVATE_URLS", "true");
  // the default schedule: the next attempt is minutes away
  vi.stubEnv("WEBHOOK_RETRY_BASE_MS", "30000");
  receiver = await startReceiver(() => (status === 200 ? { status, signWith: token } : { status, body: `answered ${status}` }));
  org = await createTestOrg(testDb.db, "Health truth");
  customer = await createTestCustomer(testDb.db, org.partner.id, { emails: ["a@acme.example"] });
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await receiver?.close();
  await testDb?.close();
});

describe("endpoint health", () => {
  it("is failing from the first failed attempt, and retry now attempts a waiting delivery at once", async () => {
    const { endpoint, secret } = await createEndpoint(testDb.db, { partnerId: org.partner.id }, "current", {
      url: receiver.url,
      eventTypes: ["customer.created"],
      maxAttempts: 3,
    });
    token = secret;
    const health = async () => (await findVisibleEndpoint(testDb.db, org.distributor.id, endpoint.id))!.health;
    expect((await health()).state).toBe("healthy");

    status = 500;
    await recordTestEvent(testDb.db, customer, "customer.created", {});
    await drainWebhooks(testDb.db);
    expect(receiver.requests).toHaveLength(1);
    const [waiting] = await deliveriesOf(testDb.db, endpoint.id);
    expect(waiting).toMatchObject({ status: "pending", attemptCount: 1 });
    expect(waiting!.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 60_000);

    const failing = await health();
    expect(failing.state).toBe("failing");
    expect(failing.failingSince).toBeInstanceOf(Date);
    // no delivery has used up its attempts yet: none counts towards disabling the endpoint
    expect(failing.consecutiveFailures).toBe(0);

    // retry now: due at once, its round of attempts kept
    status = 200;
    const retried = await requeueDelivery(testDb.db, { partnerId: org.partner.id }, "current", endpoint.id, waiting!.id);
    expect(retried.status).toBe("pending");
    expect(new Date(retried.nextAttemptAt!).getTime()).toBeLessThanOrEqual(Date.now());
    await drainWebhooks(testDb.db);
    expect(receiver.requests).toHaveLength(2);
    const [delivered] = await deliveriesOf(testDb.db, endpoint.id);
    expect(delivered).toMatchObject({ status: "delivered", attemptCount: 2 });

    const healthy = await health();
    expect(healthy).toMatchObject({ state: "healthy", failingSince: null, consecutiveFailures: 0 });
    expect(healthy.lastSuccessAt).toBeInstanceOf(Date);
  });

  it("a delivery being attempted right now is not queued twice", async () => {
    const { endpoint } = await createEndpoint(testDb.db, { partnerId: org.partner.id }, "current", {
      url: receiver.url,
      eventTypes: ["customer.deleted"],
    });
    status = 500;
    await recordTestEvent(testDb.db, customer, "customer.deleted", {});
    await drainWebhooks(testDb.db);
    const [delivery] = await deliveriesOf(testDb.db, endpoint.id);
    // as the engine leaves it while a request is in flight
    await testDb.db.webhookDelivery.update({ where: { id: delivery!.id }, data: { status: "delivering" } });
    await expect(requeueDelivery(testDb.db, { partnerId: org.partner.id }, "current", endpoint.id, delivery!.id)).rejects.toThrow(
      "Delivery is already queued",
    );
  });

  it("reads never succeeded while its only attempts (a test included) failed, and healthy once one is delivered", async () => {
    const { endpoint, secret } = await createEndpoint(testDb.db, { partnerId: org.partner.id }, "current", {
      url: receiver.url,
      eventTypes: ["customer.created"],
    });
    token = secret;
    const health = async () => (await findVisibleEndpoint(testDb.db, org.distributor.id, endpoint.id))!.health;
    const listedAs = async (state: EndpointState) =>
      (await listPartnerEndpoints(testDb.db, org.distributor.id, { page: 1, pageSize: 100, state })).endpoints.some(
        (listed) => listed.id === endpoint.id,
      );
    // nothing sent yet: nothing to say against it
    expect((await health()).state).toBe("healthy");

    status = 500;
    await sendTestEvent(testDb.db, { partnerId: org.partner.id }, "current", endpoint.id, undefined);
    await drainWebhooks(testDb.db);
    const [failedTest] = await deliveriesOf(testDb.db, endpoint.id);
    expect(failedTest).toMatchObject({ status: "failed", isTest: true });
    // a test does not start a failing run, but the endpoint has not shown that it works
    expect(await health()).toMatchObject({ state: "never-succeeded", failingSince: null, lastSuccessAt: null });
    expect(await listedAs("never-succeeded")).toBe(true);
    expect(await listedAs("healthy")).toBe(false);

    status = 200;
    await sendTestEvent(testDb.db, { partnerId: org.partner.id }, "current", endpoint.id, undefined);
    await drainWebhooks(testDb.db);
    expect((await health()).state).toBe("healthy");
    expect(await listedAs("healthy")).toBe(true);
    expect(await listedAs("never-succeeded")).toBe(false);
  });
});
