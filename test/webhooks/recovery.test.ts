import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { performAttempt } from "../../server/webhooks/delivery-engine/attempt";
import { claimAttempts } from "../../server/webhooks/delivery-engine/claim";
import { INTERRUPTED } from "../../server/webhooks/delivery-engine/failure-messages";
import { ResultWriter } from "../../server/webhooks/delivery-engine/outcomes";
import { sweepDeliveries } from "../../server/webhooks/delivery-engine/sweep";
import { startDeliveryWorker } from "../../server/webhooks/delivery-worker";
import { routePendingEvents } from "../../server/webhooks/routing";
import { createEndpointFixture, deliveriesOf, drainWebhooks, recordTestEvent } from "../helpers/webhook-fixtures";
import { webhookTestBed } from "../helpers/webhook-test-bed";

const testDb = webhookTestBed();

/** A receiver that signs its answers; by default it never answers the first request. */
async function setup(maxAttempts: number, { firstHangs = true } = {}) {
  let token = "";
  const target = await testDb.receiver((_request, index) =>
    firstHangs && index === 0 ? { status: 200, delayMs: 60_000 } : { status: 200, signWith: token },
  );
  const { customer, endpointId, secret } = await createEndpointFixture(testDb.db, target.url, { endpoint: { maxAttempts } });
  token = secret;
  return { target, customer, endpointId };
}

async function sweepOnceLeaseRunsOut(): Promise<void> {
  await vi.waitFor(async () => expect(await sweepDeliveries(testDb.db)).toBe(1), { timeout: 10_000, interval: 100 });
}

describe("a worker that dies mid-delivery", () => {
  it.runIf(Boolean(process.env.TEST_DATABASE_URL))("is resumed by another process, every attempt recorded (a real SIGKILL)", async () => {
    const { target, customer, endpointId } = await setup(3);
    let claimToken = "";
    let claimedAt = new Date(0);
    // node itself runs the worker (tsx as a loader), so the SIGKILL hits the process that delivers
    const worker = spawn(process.execPath, ["--import", "tsx", path.join(import.meta.dirname, "support", "delivery-worker.ts")], {
      env: { ...process.env, WORKER_DATABASE_URL: testDb.url, WORKER_LEASE_MS: "1000" },
      stdio: ["ignore", "pipe", "inherit"],
    });
    try {
      await new Promise<void>((resolve, reject) => {
        worker.stdout!.on("data", (chunk: Buffer) => chunk.toString().includes("ready") && resolve());
        worker.once("exit", (code) => reject(new Error(`worker exited early (${code})`)));
      });
      await recordTestEvent(testDb.db, customer, "customer.created", {});
      await target.waitForRequests(1);
      // in flight: the claim stands for the attempt, whose row is written with its outcome
      expect(await testDb.db.webhookAttempt.count({ where: { delivery: { endpointId } } })).toBe(0);
      const [inFlight] = await deliveriesOf(testDb.db, endpointId);
      expect(inFlight).toMatchObject({ status: "delivering", attemptCount: 1 });
      claimToken = inFlight!.claimToken!;
      claimedAt = inFlight!.updatedAt;
    } finally {
      worker.kill("SIGKILL");
    }
    if (worker.exitCode === null && worker.signalCode === null) await new Promise((resolve) => worker.once("exit", resolve));

    await sweepOnceLeaseRunsOut();
    await drainWebhooks(testDb.db);
    expect(target.requests).toHaveLength(2);
    const [delivery] = await deliveriesOf(testDb.db, endpointId);
    expect(delivery).toMatchObject({ status: "delivered", attemptCount: 2 });
    expect(delivery!.attempts.map((a) => [a.error, a.finishedAt !== null])).toEqual([
      [INTERRUPTED, true],
      [null, true],
    ]);
    // the interrupted attempt's row is the claim's: its id the claim token, its start the claim's time
    expect(delivery!.attempts[0]).toMatchObject({ id: claimToken, startedAt: claimedAt, statusCode: null });
  });

  it("leaves an open attempt that the sweep records as interrupted before the delivery goes on", async () => {
    const { target, customer, endpointId } = await setup(3);
    await recordTestEvent(testDb.db, customer, "customer.created", {});
    await routePendingEvents(testDb.db);
    // What a killed worker leaves behind: claimed under a lease, no result.
    // Long enough that the sweep right after the claim still finds the lease running on a busy machine.
    const started = (await claimAttempts(testDb.db, { limit: 10, leaseMs: 2_000 })).started;
    expect(started).toHaveLength(1);
    expect(await sweepDeliveries(testDb.db)).toBe(0);

    await sweepOnceLeaseRunsOut();
    target.setRule(() => ({ status: 500 }));
    await drainWebhooks(testDb.db);
    const [delivery] = await deliveriesOf(testDb.db, endpointId);
    expect(delivery).toMatchObject({ status: "failed", attemptCount: 3 });
    expect(delivery!.attempts.map((a) => a.error)).toEqual([INTERRUPTED, "HTTP 500", "HTTP 500"]);
    expect(target.requests).toHaveLength(2);
  });

  it("counts the interrupted attempt: with maxAttempts 1 nothing more is sent", async () => {
    const { target, customer, endpointId } = await setup(1);
    await recordTestEvent(testDb.db, customer, "customer.created", {});
    await routePendingEvents(testDb.db);
    await claimAttempts(testDb.db, { limit: 10, leaseMs: 300 });
    await sweepOnceLeaseRunsOut();
    await drainWebhooks(testDb.db);
    expect(target.requests).toHaveLength(0);
    expect((await deliveriesOf(testDb.db, endpointId))[0]).toMatchObject({ status: "failed", attemptCount: 1, lastError: INTERRUPTED });
  });

  it("refuses a late result from a worker whose lease was taken over", async () => {
    const { customer, endpointId } = await setup(3, { firstHangs: false });
    await recordTestEvent(testDb.db, customer, "customer.created", {});
    await routePendingEvents(testDb.db);
    const [stale] = (await claimAttempts(testDb.db, { limit: 10, leaseMs: 300 })).started;
    await sweepOnceLeaseRunsOut();
    await drainWebhooks(testDb.db); // another worker delivers it
    await performAttempt(testDb.db, new ResultWriter(testDb.db), stale!); // the first worker wakes up late
    const [delivery] = await deliveriesOf(testDb.db, endpointId);
    expect(delivery).toMatchObject({ status: "delivered", attemptCount: 2, claimToken: null });
    // its answer completes the row the sweep wrote for that attempt: one row per request
    expect(delivery!.attempts.map((a) => [a.id === stale!.attemptId, a.statusCode, a.error])).toEqual([
      [true, 200, null],
      [false, 200, null],
    ]);
  });
});

describe("the in-process delivery worker", () => {
  it("delivers an event recorded and woken after its commit, and stops cleanly", async () => {
    const { target, customer, endpointId } = await setup(3, { firstHangs: false });
    const deliveryWorker = startDeliveryWorker(testDb.db, { pollMs: 60_000 });
    try {
      await recordTestEvent(testDb.db, customer, "customer.created", {});
      deliveryWorker.wake();
      await vi.waitFor(async () => expect((await deliveriesOf(testDb.db, endpointId))[0]?.status).toBe("delivered"), {
        timeout: 10_000,
        interval: 50,
      });
    } finally {
      await deliveryWorker.stop();
    }
    expect(target.requests).toHaveLength(1);
  });

  it("fails a disabled endpoint's whole queue without waiting for a poll per claim", async () => {
    const { target, customer, endpointId } = await setup(3, { firstHangs: false });
    // More than one claim's share of an endpoint (32 per claim), routed while it was enabled.
    for (let i = 0; i < 100; i++) await recordTestEvent(testDb.db, customer, "customer.created", {});
    while ((await routePendingEvents(testDb.db)).events > 0);
    expect(await testDb.db.webhookDelivery.count({ where: { endpointId, status: "pending" } })).toBe(100);
    await testDb.db.webhookEndpoint.update({ where: { id: endpointId }, data: { enabled: false } });
    const deliveryWorker = startDeliveryWorker(testDb.db, { pollMs: 60_000 });
    try {
      deliveryWorker.wake();
      await vi.waitFor(async () => expect(await testDb.db.webhookDelivery.count({ where: { endpointId, status: "failed" } })).toBe(100), {
        timeout: 10_000,
        interval: 50,
      });
    } finally {
      await deliveryWorker.stop();
    }
    expect(target.requests).toHaveLength(0);
  });
});
