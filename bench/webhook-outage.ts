/**
 * Receiver outage benchmark (on demand; not part of the test suite). On a fresh PostgreSQL
 * database, with the in-process delivery worker and a receiver in a process of its own on 127.0.0.1
 * (bench/support/outage-receiver.ts): the receiver answers 503 (no Retry-After) for the
 * equivalent of `--outage-minutes` of the retry schedule while `--events` events are recorded,
 * evenly over the outage, for one endpoint with the default maxAttempts; then it answers 200
 * again. Reported: events accepted by the receiver (each counted once by idempotencyToken, and
 * any second acceptance), events lost (never accepted: their delivery failed, or none was queued
 * because the endpoint had been disabled), and the time from the receiver's return to the last
 * event accepted.
 *
 * Time is scaled the way WEBHOOK_RETRY_BASE_MS scales the whole retry schedule (docs/webhooks.md):
 * by WEBHOOK_RETRY_BASE_MS / 30000. The default here is 1000 (1/30): 30 minutes of outage last
 * 60 s, and the events arrive at about 170/s. At 100 (1/300, 6 s) they arrive at 1,700/s, faster
 * than the delivery worker makes attempts against a failing receiver on two cores: first attempts
 * queue up, are claimed before the retries (oldest due first), and the retries hardly come
 * during the outage, so the run measures that backlog rather than the schedule (the figures
 * `attemptedWhileDown` and `retriedWhileDown` show which case a run was).
 *
 *   npx tsx bench/webhook-outage.ts [--events 10000] [--outage-minutes 30]
 *   WEBHOOK_RETRY_BASE_MS=1000 (default here), BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres (default)
 */
import { randomBytes } from "node:crypto";
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { config } from "../server/config";
import type { Prisma } from "../server/db/client";
import { customerRef } from "../server/events/outbox";
import { startDeliveryWorker } from "../server/webhooks/delivery-worker";
import { createEndpoint } from "../server/webhooks/endpoints";
import { createBenchDatabase, createBenchPartner, reportResult } from "./support/bench-kit";
import { startOutageReceiver } from "./support/outage-receiver";

const { values } = parseArgs({
  options: { events: { type: "string", default: "10000" }, "outage-minutes": { type: "string", default: "30" } },
});
const EVENTS = Number(values.events);
const OUTAGE_MINUTES = Number(values["outage-minutes"]);
process.env.WEBHOOK_RETRY_BASE_MS ??= "1000";
process.env.WEBHOOK_ALLOW_PRIVATE_URLS = "true";
process.env.APP_SECRET ??= randomBytes(32).toString("base64url");
process.env.LOG_LEVEL = "error";

/** WEBHOOK_RETRY_BASE_MS scales the whole schedule; 30000 is its default (docs/webhooks.md). */
const SCALE = config.webhookRetryBaseMs() / 30_000;
const OUTAGE_MS = OUTAGE_MINUTES * 60_000 * SCALE;
/** Events per statement while they are recorded. */
const BATCH = 100;
/** Give up when the deliveries are not settled this long after the receiver's return: 3 scaled hours, a minute at least. */
const SETTLE_DEADLINE_MS = Math.max(60_000, 3 * 3_600_000 * SCALE);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const unscaledMinutes = (ms: number) => Number((ms / SCALE / 60_000).toFixed(1));

async function main() {
  if (!(SCALE > 0)) throw new Error("WEBHOOK_RETRY_BASE_MS must be above 0: the outage is measured in the schedule's scaled time");
  // Other work on the machine slows every figure down: its load when the run began is reported with them.
  const loadAtStart = Number(loadavg()[0]!.toFixed(1));
  const { database, drop } = await createBenchDatabase("outage");
  let receiver: Awaited<ReturnType<typeof startOutageReceiver>> | undefined;
  try {
    const db = database.prisma;
    const { partner, customer } = await createBenchPartner(db);
    // The receiver signs with the organization's token, which creating the endpoint returns.
    const { endpoint, secret } = await createEndpoint(db, { partnerId: partner.id }, "current", {
      url: "http://127.0.0.1:9/",
      eventTypes: ["customer.created"],
    });
    receiver = await startOutageReceiver(secret, { down: true });
    await db.webhookEndpoint.update({ where: { id: endpoint.id }, data: { url: receiver.url } });
    const payload = { customer: customerRef(customer) } as unknown as Prisma.InputJsonValue;

    console.log(
      `WEBHOOK_RETRY_BASE_MS=${config.webhookRetryBaseMs()} (scale 1/${Math.round(1 / SCALE)}): receiver down for ${(OUTAGE_MS / 1000).toFixed(1)} s ` +
        `(${OUTAGE_MINUTES} min unscaled) while ${EVENTS} events are recorded, maxAttempts ${endpoint.maxAttempts}`,
    );
    const deliveryWorker = startDeliveryWorker(db);
    const downAt = Date.now();
    // The receiver comes back when the outage is over, whether or not all events are recorded by then.
    const comeback = sleep(OUTAGE_MS).then(() => receiver!.bringBack());
    let recorded = 0;
    let recordedWhileDown: number | undefined;
    void comeback.then(() => (recordedWhileDown = recorded));
    // Events evenly over the first 90 % of the outage, BATCH per transaction.
    const batches = Math.ceil(EVENTS / BATCH);
    const spacing = (OUTAGE_MS * 0.9) / batches;
    for (let batch = 0; batch < batches; batch++) {
      const wait = downAt + batch * spacing - Date.now();
      if (wait > 0) await sleep(wait);
      const size = Math.min(BATCH, EVENTS - batch * BATCH);
      // The rows recordEvent writes, BATCH per statement: one recordEvent per event could not keep
      // up with 10,000 events in 6 s next to the delivery worker on two cores.
      await db.outboxEvent.createMany({
        data: Array.from({ length: size }, () => ({ type: "customer.created", partnerId: partner.id, customerId: customer.id, payload })),
      });
      recorded += size;
      deliveryWorker.wake();
    }
    const producedMs = Date.now() - downAt;
    const backAt = await comeback;
    const duringOutage = await receiver.stats();
    console.log(
      `${recordedWhileDown ?? recorded} events recorded while the receiver was down, all ${EVENTS} in ${(producedMs / 1000).toFixed(1)} s; ` +
        `receiver back after ${((backAt - downAt) / 1000).toFixed(1)} s, ${duringOutage.refused} requests answered 503 meanwhile`,
    );

    let counts: Record<string, number> = {};
    let lastReport = Date.now();
    for (;;) {
      await sleep(500);
      const rows = await db.webhookDelivery.groupBy({ by: ["status"], _count: { _all: true } });
      counts = Object.fromEntries(rows.map((row) => [row.status, row._count._all]));
      const unrouted = await db.outboxEvent.count({ where: { routedAt: null } });
      const settled = unrouted === 0 && (counts.pending ?? 0) + (counts.delivering ?? 0) === 0;
      if (settled) break;
      if (Date.now() - backAt > SETTLE_DEADLINE_MS) {
        console.log(`not settled ${SETTLE_DEADLINE_MS / 1000} s after the receiver came back; reporting as is`);
        break;
      }
      if (Date.now() - lastReport >= 5_000) {
        lastReport = Date.now();
        console.log(`  ${((Date.now() - backAt) / 1000).toFixed(0)} s after the return: ${JSON.stringify(counts)}`);
      }
    }
    await deliveryWorker.stop();
    const stats = await receiver.stats();
    const [whileDown] = await db.$queryRaw<Array<{ attempted: bigint; retried: bigint }>>`
      SELECT count(*) AS attempted, count(*) FILTER (WHERE n >= 2) AS retried
      FROM (SELECT delivery_id, count(*) AS n FROM webhook_attempts WHERE started_at < ${new Date(backAt)} GROUP BY delivery_id) a`;
    const attempts = await db.webhookAttempt.count();
    const endpointAfter = await db.webhookEndpoint.findUniqueOrThrow({
      where: { id: endpoint.id },
      select: { enabled: true, disabledReason: true },
    });
    const untilAllMs = stats.lastAcceptedAt === null ? null : stats.lastAcceptedAt - backAt;
    reportResult("webhook-outage", {
      retryBaseMs: config.webhookRetryBaseMs(),
      machineLoadAverageAtStart: loadAtStart,
      scale: `1/${Math.round(1 / SCALE)}`,
      events: EVENTS,
      outageMs: Math.round(OUTAGE_MS),
      outageMinutesUnscaled: OUTAGE_MINUTES,
      receiverDown: "503 without Retry-After",
      eventsRecordedInMs: producedMs,
      eventsRecordedWhileDown: recordedWhileDown ?? recorded,
      delivered: counts.delivered ?? 0,
      lost: EVENTS - stats.accepted,
      failed: counts.failed ?? 0,
      // routing writes no delivery for an endpoint while it is disabled
      neverQueued: EVENTS - Object.values(counts).reduce((sum, n) => sum + n, 0),
      stillQueued: (counts.pending ?? 0) + (counts.delivering ?? 0),
      acceptedOnceByToken: stats.accepted,
      duplicates: stats.duplicates,
      attemptedWhileDown: Number(whileDown!.attempted),
      retriedWhileDown: Number(whileDown!.retried),
      requests: stats.requests,
      answered503: stats.refused,
      attempts,
      untilAllDeliveredMs: untilAllMs,
      untilAllDeliveredMinutesUnscaled: untilAllMs === null ? null : unscaledMinutes(untilAllMs),
      endpointEnabledAfter: endpointAfter.enabled,
      endpointDisabledReason: endpointAfter.disabledReason,
    });
  } finally {
    receiver?.stop();
    await drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
