/**
 * Recover benchmark (on demand; not part of the test suite). On a fresh PostgreSQL database, with
 * the in-process delivery worker and a receiver in a process of its own on 127.0.0.1
 * (bench/support/outage-receiver.ts):
 *   1. `--deliveries` events are recorded and routed for one endpoint with maxAttempts 1 while the
 *      receiver answers 503, and the delivery worker drives every delivery to `failed` for real
 *      (after 20 failed deliveries in a row the endpoint is disabled, and the claim fails the rest
 *      without a request, as it would in production);
 *   2. the receiver answers 200 again, the endpoint is enabled (updateEndpoint, as its owner
 *      would), and recoverDeliveries (the service behind POST /{id}/recover) queues them all;
 *   3. the delivery worker delivers them. Reported: the time to queue (goal < 2 s) and the delivery
 *      rate from the recover call to the last delivery accepted (goal >= 1,000/s); and, for
 *      another partner's healthy endpoint receiving 20 events/s meanwhile, the time from each
 *      event to its first attempt (what a recover's backlog costs everyone else).
 *
 *   npx tsx bench/webhook-recover.ts [--deliveries 10000]
 *   BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres (default)
 */
import { randomBytes } from "node:crypto";
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { createPartner } from "../server/distributors/partners";
import { customerRef, recordEvent } from "../server/events/outbox";
import { startDeliveryWorker } from "../server/webhooks/delivery-worker";
import { createEndpoint, updateEndpoint } from "../server/webhooks/endpoints";
import { recoverDeliveries } from "../server/webhooks/recover";
import { routePendingEvents } from "../server/webhooks/routing";
import { createBenchCustomer, createBenchDatabase, createBenchPartner, reportResult } from "./support/bench-kit";
import { startOutageReceiver } from "./support/outage-receiver";

const { values } = parseArgs({ options: { deliveries: { type: "string", default: "10000" } } });
const DELIVERIES = Number(values.deliveries);
process.env.WEBHOOK_ALLOW_PRIVATE_URLS = "true";
process.env.APP_SECRET ??= randomBytes(32).toString("base64url");
process.env.LOG_LEVEL = "error";

/** Events a second for another partner's endpoint while the recovered deliveries go out. */
const BYSTANDER_RATE = 20;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main() {
  // Other work on the machine slows every figure down: its load when the run began is reported with them.
  const loadAtStart = Number(loadavg()[0]!.toFixed(1));
  const { database, drop } = await createBenchDatabase("recover");
  let receiver: Awaited<ReturnType<typeof startOutageReceiver>> | undefined;
  let bystanderReceiver: Awaited<ReturnType<typeof startOutageReceiver>> | undefined;
  try {
    const db = database.prisma;
    const { distributor, partner, customer } = await createBenchPartner(db);
    const owner = { partnerId: partner.id };
    const { endpoint, secret } = await createEndpoint(db, owner, "current", {
      url: "http://127.0.0.1:9/",
      eventTypes: ["customer.created"],
      maxAttempts: 1,
    });
    receiver = await startOutageReceiver(secret, { down: true });
    await db.webhookEndpoint.update({ where: { id: endpoint.id }, data: { url: receiver.url } });
    const data = { customer: customerRef(customer) };
    // Another partner's endpoint, healthy, with events coming in while the recovered ones go out.
    const otherPartner = await createPartner(db, { distributorId: distributor.id, name: "Bystander partner" });
    const otherCustomer = await createBenchCustomer(db, otherPartner.id, "BENCH-2", "Bystander Ltd");
    const other = await createEndpoint(db, { partnerId: otherPartner.id }, "current", {
      url: "http://127.0.0.1:9/",
      eventTypes: ["customer.created"],
    });
    bystanderReceiver = await startOutageReceiver(other.secret);
    await db.webhookEndpoint.update({ where: { id: other.endpoint.id }, data: { url: bystanderReceiver.url } });

    // 1: the outage, for real
    const since = new Date();
    console.log(`recording ${DELIVERIES} events; the receiver answers 503...`);
    for (let done = 0; done < DELIVERIES; done += 1000) {
      await db.$transaction(async (tx) => {
        for (let i = 0; i < Math.min(1000, DELIVERIES - done); i++) {
          await recordEvent(tx, { type: "customer.created", partnerId: partner.id, customerId: customer.id, data });
        }
      });
    }
    // Routed before the delivery worker starts: once the endpoint is disabled, routing writes no
    // deliveries for it, and the events would leave nothing to recover.
    while ((await routePendingEvents(db)).events > 0);
    const deliveryWorker = startDeliveryWorker(db);
    const failingStarted = performance.now();
    while ((await db.webhookDelivery.count({ where: { endpointId: endpoint.id, status: "failed" } })) < DELIVERIES) await sleep(250);
    const failingMs = performance.now() - failingStarted;
    const failedWithRequest = await db.webhookDelivery.count({
      where: { endpointId: endpoint.id, status: "failed", attempts: { some: {} } },
    });
    const before = await receiver.stats();
    const { enabled, disabledReason } = await db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    console.log(
      `${DELIVERIES} failed in ${(failingMs / 1000).toFixed(1)} s (${failedWithRequest} after a 503, the rest without a request: ` +
        `${enabled ? "endpoint still enabled" : `endpoint disabled: ${disabledReason}`})`,
    );

    // 2: back, enabled, recovered
    await receiver.bringBack();
    if (!enabled) await updateEndpoint(db, owner, "current", endpoint.id, { enabled: true });
    const recoverStarted = performance.now();
    const recoverStartedAt = Date.now();
    const queued = await recoverDeliveries(db, owner, "current", endpoint.id, { since });
    const queueMs = performance.now() - recoverStarted;
    deliveryWorker.wake(); // what wakeJobWorkers() does in the server (no job waker is registered in this process)
    console.log(`recover queued ${queued} in ${queueMs.toFixed(0)} ms`);

    // 3: delivered, while the other partner's events arrive BYSTANDER_RATE a second, one per transaction
    const bystanderSince = new Date();
    let bystanding = true;
    const bystander = (async () => {
      while (bystanding) {
        await db.$transaction((tx) =>
          recordEvent(tx, {
            type: "customer.created",
            partnerId: otherPartner.id,
            customerId: otherCustomer.id,
            data: { customer: customerRef(otherCustomer) },
          }),
        );
        deliveryWorker.wake();
        await sleep(1000 / BYSTANDER_RATE);
      }
    })();
    for (;;) {
      await sleep(100);
      const stats = await receiver.stats();
      if (stats.accepted >= queued) break;
      if (performance.now() - recoverStarted > 300_000) throw new Error(`only ${stats.accepted} of ${queued} accepted after 5 minutes`);
    }
    bystanding = false;
    await bystander;
    while (
      (await db.outboxEvent.count({ where: { routedAt: null } })) +
        (await db.webhookDelivery.count({ where: { status: { in: ["pending", "delivering"] } } })) >
      0
    ) {
      await sleep(100);
    }
    await deliveryWorker.stop();
    // The other partner's events: from the event's row to its delivery's first attempt.
    const latencyRows = await db.$queryRaw<Array<{ ms: number }>>`
      SELECT extract(epoch FROM (min(a.started_at) - o.created_at)) * 1000 AS ms
      FROM outbox_events o JOIN webhook_deliveries d ON d.event_id = o.id JOIN webhook_attempts a ON a.delivery_id = d.id
      WHERE d.endpoint_id = ${other.endpoint.id}::uuid AND o.created_at >= ${bystanderSince} GROUP BY o.id, o.created_at`;
    const latencies = latencyRows.map((row) => Number(row.ms)).sort((a, b) => a - b);
    const percentile = (p: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]!);
    const stats = await receiver.stats();
    const delivered = await db.webhookDelivery.count({ where: { endpointId: endpoint.id, status: "delivered" } });
    const failed = await db.webhookDelivery.count({ where: { endpointId: endpoint.id, status: "failed" } });
    const untilLastMs = stats.lastAcceptedAt! - recoverStartedAt;
    const firstToLastMs = stats.lastAcceptedAt! - stats.firstAcceptedAt!;
    reportResult("webhook-recover", {
      deliveries: DELIVERIES,
      machineLoadAverageAtStart: loadAtStart,
      failedHow: "for real: maxAttempts 1, receiver answering 503",
      failedInMs: Math.round(failingMs),
      failedAfterARequest: failedWithRequest,
      failedWithoutRequestEndpointDisabled: DELIVERIES - failedWithRequest,
      answered503: before.refused,
      recoveredThrough: "recoverDeliveries (service)",
      queued,
      queueMs: Math.round(queueMs),
      delivered,
      failedAfter: failed,
      acceptedOnceByToken: stats.accepted,
      duplicates: stats.duplicates,
      recoverToLastDeliveredMs: untilLastMs,
      deliveriesPerSecond: Math.round((queued * 1000) / untilLastMs),
      firstToLastDeliveredMs: firstToLastMs,
      deliveriesPerSecondFirstToLast: Math.round((queued * 1000) / Math.max(1, firstToLastMs)),
      otherPartnerEventsMeanwhile: latencies.length,
      otherPartnerEventToFirstAttemptMs: { p50: percentile(50), p99: percentile(99), max: Math.round(latencies.at(-1)!) },
    });
  } finally {
    receiver?.stop();
    bystanderReceiver?.stop();
    await drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
