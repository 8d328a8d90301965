import { InngestTestEngine } from "@inngest/test";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { JOBS_DUE_EVENT } from "../../inngest/client";
import { createWebhookFunctions, WEBHOOKS_DUE_EVENT } from "../../inngest/webhooks";
import { claimAttempts } from "../../server/webhooks/delivery-engine/claim";
import { INTERRUPTED } from "../../server/webhooks/delivery-engine/failure-messages";
import { routePendingEvents } from "../../server/webhooks/routing";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createEndpointFixture, deliveriesOf, recordTestEvent } from "../helpers/webhook-fixtures";
import { startReceiver, type TestReceiver } from "../helpers/webhook-receiver";

let testDb: TestDatabase;
let target: TestReceiver;
let token = "";
let fail = false;
let functions: ReturnType<typeof createWebhookFunctions>;

beforeAll(async () => {
  testDb = await createTestDatabase();
  target = await startReceiver(() => (fail ? { status: 500 } : { status: 200, signWith: token }));
  functions = createWebhookFunctions(async () => testDb.db);
});
afterAll(async () => {
  await target?.close();
  await testDb?.close();
});
beforeEach(() => {
  vi.stubEnv("WEBHOOK_ALLOW_PRIVATE_URLS", "true");
  fail = false;
  return () => vi.unstubAllEnvs();
});

async function setup() {
  const { customer, endpointId, secret } = await createEndpointFixture(testDb.db, target.url);
  token = secret;
  return { customer, endpointId };
}

const sendEventMock = (id: string) => ({ id, handler: () => ({ ids: ["mocked"] }) });

describe("Inngest function deliver-webhooks", () => {
  it("routes and delivers when a commit wakes the workers", async () => {
    const { customer, endpointId } = await setup();
    await recordTestEvent(testDb.db, customer, "customer.created", {});
    const engine = new InngestTestEngine({ function: functions[0]! });
    const before = target.requests.length;
    const { result } = await engine.execute({ events: [{ name: JOBS_DUE_EVENT, data: {} }], steps: [sendEventMock("wake-at-next-due")] });
    expect(result).toEqual({ routed: 1, attempted: 1 });
    expect(target.requests.length).toBe(before + 1);
    expect((await deliveriesOf(testDb.db, endpointId))[0]!.status).toBe("delivered");
  });

  it("schedules a wake-up event at the next retry", async () => {
    vi.stubEnv("WEBHOOK_RETRY_BASE_MS", "5000");
    fail = true;
    const { customer, endpointId } = await setup();
    await recordTestEvent(testDb.db, customer, "customer.created", {});
    const engine = new InngestTestEngine({ function: functions[0]! });
    const { result, ctx } = await engine.execute({
      events: [{ name: WEBHOOKS_DUE_EVENT, data: {} }],
      steps: [sendEventMock("wake-at-next-due")],
    });
    expect(result).toEqual({ routed: 1, attempted: 1 });
    const [delivery] = await deliveriesOf(testDb.db, endpointId);
    expect(delivery).toMatchObject({ status: "pending", attemptCount: 1 });
    expect(ctx.step.sendEvent).toHaveBeenCalledWith("wake-at-next-due", {
      name: WEBHOOKS_DUE_EVENT,
      data: {},
      ts: delivery!.nextAttemptAt.getTime(),
    });
    await testDb.db.webhookDelivery.update({ where: { id: delivery!.id }, data: { status: "failed" } });
  });
});

describe("Inngest function sweep-webhooks", () => {
  it("recovers a delivery whose worker died and starts a delivery run", async () => {
    const { customer, endpointId } = await setup();
    await recordTestEvent(testDb.db, customer, "customer.created", {});
    await routePendingEvents(testDb.db);
    await claimAttempts(testDb.db, { limit: 10, leaseMs: 1 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const engine = new InngestTestEngine({ function: functions[1]! });
    const { result, ctx } = await engine.execute({ steps: [sendEventMock("start-delivery")] });
    expect(result).toEqual({ recovered: 1, due: true });
    expect(ctx.step.sendEvent).toHaveBeenCalledWith("start-delivery", { name: WEBHOOKS_DUE_EVENT, data: {} });
    const [delivery] = await deliveriesOf(testDb.db, endpointId);
    expect(delivery).toMatchObject({ status: "pending", lastError: INTERRUPTED });
    expect(delivery!.attempts.map((a) => a.error)).toEqual([INTERRUPTED]);
  });

  it("starts nothing when nothing waits", async () => {
    await testDb.db.webhookDelivery.updateMany({ where: { status: { in: ["pending", "delivering"] } }, data: { status: "failed" } });
    const engine = new InngestTestEngine({ function: functions[1]! });
    const { result, ctx } = await engine.execute({ steps: [sendEventMock("start-delivery")] });
    expect(result).toEqual({ recovered: 0, due: false });
    expect(ctx.step.sendEvent).not.toHaveBeenCalled();
  });
});
