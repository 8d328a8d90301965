import { describe, expect, it, vi } from "vitest";
import { claimAttempts } from "../../server/webhooks/delivery-engine/claim";
import { PER_ENDPOINT_CONCURRENCY } from "../../server/webhooks/delivery-engine/limits";
import { startDeliveryWorker } from "../../server/webhooks/delivery-worker";
import { routePendingEvents } from "../../server/webhooks/routing";
import { createEndpointFixture, deliveriesOf, recordTestEvent } from "../helpers/webhook-fixtures";
import type { ReplyRule } from "../helpers/webhook-receiver";
import { webhookTestBed } from "../helpers/webhook-test-bed";

// An endpoint's share of request slots (docs/webhooks.md, "Claiming"): deliveries whose request
// has its answer hold no slot while their outcome is being written.
const testDb = webhookTestBed();

async function endpointWith(rule: ReplyRule, events: number) {
  let token = "";
  const target = await testDb.receiver((request, index) => ({ ...rule(request, index), signWith: token }));
  const { customer, endpointId, secret } = await createEndpointFixture(testDb.db, target.url);
  token = secret;
  for (let i = 0; i < events; i++) await recordTestEvent(testDb.db, customer, "customer.created", {});
  return { target, endpointId };
}

describe("an endpoint's request slots", () => {
  it("count its delivering deliveries, except those the caller says are answered", async () => {
    const { endpointId } = await endpointWith(() => ({ status: 200 }), 4);
    await routePendingEvents(testDb.db);

    const first = await claimAttempts(testDb.db, { limit: 10, perEndpoint: 2 });
    expect(first.started.map((attempt) => attempt.delivery.endpointId)).toEqual([endpointId, endpointId]);
    expect((await claimAttempts(testDb.db, { limit: 10, perEndpoint: 2 })).claimed).toBe(0);

    const answered = [first.started[0]!.delivery.id];
    const second = await claimAttempts(testDb.db, { limit: 10, perEndpoint: 2, answered });
    expect(second.claimed).toBe(1);
    expect(second.started[0]!.delivery.id).not.toBe(answered[0]);
    expect((await claimAttempts(testDb.db, { limit: 10, perEndpoint: 2, answered })).claimed).toBe(0);
  });

  it("are never more than the endpoint's share in flight while the worker frees each at its answer, and every attempt is recorded", async () => {
    let open = 0;
    let most = 0;
    // Long enough for a whole share's requests to be open at once on a busy machine (this process
    // runs the worker and the receiver; at 150 ms the first wave sometimes arrived too spread out).
    const answerMs = 1_000;
    const events = PER_ENDPOINT_CONCURRENCY + 16;
    const { target, endpointId } = await endpointWith(() => {
      most = Math.max(most, ++open);
      setTimeout(() => open--, answerMs).unref();
      return { status: 200, delayMs: answerMs };
    }, events);

    const worker = startDeliveryWorker(testDb.db, { pollMs: 50 });
    try {
      await vi.waitFor(
        async () => expect((await deliveriesOf(testDb.db, endpointId)).filter((d) => d.status === "delivered")).toHaveLength(events),
        { timeout: 20_000, interval: 100 },
      );
    } finally {
      await worker.stop();
    }
    expect(target.requests).toHaveLength(events);
    expect(most).toBe(PER_ENDPOINT_CONCURRENCY);
    const deliveries = await deliveriesOf(testDb.db, endpointId);
    expect(
      deliveries.every((d) => d.attempts.length === 1 && d.attempts[0]!.statusCode === 200 && d.attempts[0]!.finishedAt !== null),
    ).toBe(true);
  });
});
