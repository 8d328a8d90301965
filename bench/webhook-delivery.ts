/**
 * Webhook delivery benchmark (on demand; not part of the test suite). On a fresh PostgreSQL
 * database it measures, with the in-process delivery worker and a signing receiver in a process of
 * its own on 127.0.0.1:
 *   1. throughput: N events recorded up front, then routed and delivered (deliveries/s);
 *   2. latency: events recorded one per transaction at a steady rate, each woken after its
 *      commit; the time from the event row to its first attempt (p50, p99);
 *   3. memory: the heap and RSS of the process running the delivery worker, sampled during the
 *      throughput run.
 *
 *   npx tsx bench/webhook-delivery.ts [--deliveries 20000] [--rate 200] [--seconds 10]
 *   BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres (default)
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import { issueApiKey } from "../server/auth/api-keys";
import { customerRef, recordEvent } from "../server/events/outbox";
import { startDeliveryWorker } from "../server/webhooks/delivery-worker";
import { createEndpoint } from "../server/webhooks/endpoints";
import { createBenchDatabase, createBenchPartner } from "./support/bench-kit";

const { values } = parseArgs({
  options: {
    deliveries: { type: "string", default: "20000" },
    rate: { type: "string", default: "200" },
    seconds: { type: "string", default: "10" },
  },
});
const DELIVERIES = Number(values.deliveries);
const RATE = Number(values.rate);
const SECONDS = Number(values.seconds);
process.env.WEBHOOK_ALLOW_PRIVATE_URLS = "true";
process.env.APP_SECRET ??= randomBytes(32).toString("base64url");
process.env.LOG_LEVEL = "warn";

const RECEIVER = `
const http = require("node:http"); const crypto = require("node:crypto");
const token = process.env.TOKEN;
const server = http.createServer((req, res) => {
  const chunks = []; req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    const body = Buffer.concat(chunks).toString("utf8");
    const signature = crypto.createHmac("sha256", token).update(req.headers["x-token"] + ":" + body).digest("hex");
    res.writeHead(200, { "x-signature": signature, "content-length": 2 }); res.end("ok");
  });
});
server.keepAliveTimeout = 30000;
server.listen(0, "127.0.0.1", () => process.stdout.write(String(server.address().port) + "\\n"));`;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function main() {
  const { database, drop } = await createBenchDatabase("webhooks");
  let receiver: ReturnType<typeof spawn> | undefined;
  try {
    const db = database.prisma;
    const { partner, customer } = await createBenchPartner(db);
    await issueApiKey(db, { partnerId: partner.id });

    // The receiver signs with the organization's token, which creating the endpoint returns.
    const placeholder = await createEndpoint(db, { partnerId: partner.id }, "current", {
      url: "http://127.0.0.1:9/",
      eventTypes: ["customer.created"],
    });
    receiver = spawn(process.execPath, ["-e", RECEIVER], {
      env: { ...process.env, TOKEN: placeholder.secret },
      stdio: ["ignore", "pipe", "inherit"],
    });
    const port = await new Promise<string>((resolve) =>
      receiver!.stdout!.once("data", (chunk: Buffer) => resolve(chunk.toString().trim())),
    );
    await db.webhookEndpoint.update({ where: { id: placeholder.endpoint.id }, data: { url: `http://127.0.0.1:${port}/hook` } });

    const data = { customer: customerRef(customer) };
    const record = (tx: Parameters<Parameters<typeof db.$transaction>[0]>[0]) =>
      recordEvent(tx, { type: "customer.created", partnerId: partner.id, customerId: customer.id, data });

    // 1 + 3: throughput and memory
    console.log(`recording ${DELIVERIES} events...`);
    for (let done = 0; done < DELIVERIES; done += 1000) {
      await db.$transaction(async (tx) => {
        for (let i = 0; i < Math.min(1000, DELIVERIES - done); i++) await record(tx);
      });
    }
    const memory: Array<{ heap: number; rss: number }> = [];
    const sampler = setInterval(() => {
      const usage = process.memoryUsage();
      memory.push({ heap: usage.heapUsed, rss: usage.rss });
    }, 1000);
    const started = performance.now();
    const deliveryWorker = startDeliveryWorker(db);
    let delivered = 0;
    let reported = { at: started, delivered: 0 };
    while (delivered < DELIVERIES) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      delivered = await db.webhookDelivery.count({ where: { status: "delivered" } });
      if (performance.now() - reported.at >= 10_000) {
        const rate = ((delivered - reported.delivered) * 1000) / (performance.now() - reported.at);
        console.log(
          `  ${delivered} delivered, ${rate.toFixed(0)}/s over the last ${((performance.now() - reported.at) / 1000).toFixed(0)} s`,
        );
        reported = { at: performance.now(), delivered };
      }
    }
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const failed = await db.webhookDelivery.count({ where: { status: "failed" } });
    console.log(
      `throughput: ${DELIVERIES} deliveries in ${seconds.toFixed(1)} s = ${(DELIVERIES / seconds).toFixed(0)} deliveries/s (failed: ${failed})`,
    );
    const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
    const quarter = Math.max(1, Math.floor(memory.length / 4));
    const avg = (rows: typeof memory, key: "heap" | "rss") => rows.reduce((sum, row) => sum + row[key], 0) / rows.length;
    console.log(
      `memory: heap first quarter ${mb(avg(memory.slice(0, quarter), "heap"))} MB, last quarter ${mb(avg(memory.slice(-quarter), "heap"))} MB, ` +
        `max ${mb(Math.max(...memory.map((m) => m.heap)))} MB; rss first quarter ${mb(avg(memory.slice(0, quarter), "rss"))} MB, last quarter ${mb(avg(memory.slice(-quarter), "rss"))} MB`,
    );

    // 2: latency from the event's row to its first attempt, events recorded at a steady rate
    const marker = new Date();
    const total = RATE * SECONDS;
    const interval = 1000 / RATE;
    const begin = performance.now();
    for (let i = 0; i < total; i++) {
      const due = begin + i * interval;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      await db.$transaction((tx) => record(tx));
      deliveryWorker.wake();
    }
    while ((await db.webhookDelivery.count({ where: { createdAt: { gte: marker }, status: { in: ["pending", "delivering"] } } })) > 0) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const rows = await db.$queryRaw<Array<{ ms: number }>>`
      SELECT extract(epoch FROM (min(a.started_at) - o.created_at)) * 1000 AS ms
      FROM outbox_events o JOIN webhook_deliveries d ON d.event_id = o.id JOIN webhook_attempts a ON a.delivery_id = d.id
      WHERE o.created_at >= ${marker} GROUP BY o.id, o.created_at`;
    const latencies = rows.map((row) => Number(row.ms)).sort((a, b) => a - b);
    console.log(
      `latency event -> first attempt at ${RATE}/s for ${SECONDS} s (${latencies.length} events): ` +
        `p50 ${percentile(latencies, 50).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms, max ${latencies.at(-1)!.toFixed(0)} ms`,
    );
    await deliveryWorker.stop();
  } finally {
    receiver?.kill();
    await drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
