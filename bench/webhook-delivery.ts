/**
 * Webhook delivery benchmark (on demand; not part of the test suite). On a fresh PostgreSQL
 * database it measures, with the in-process delivery worker and a signing receiver in a process of
 * its own on 127.0.0.1:
 *   1. throughput: N events recorded up front, then routed and delivered (deliveries/s), as a
 *      ratio of the bare reference (bench/support/bare-delivery.mjs) run with the same count just
 *      before and just after it; with the CPU time PostgreSQL's sessions of the benchmark's
 *      database spent per delivery;
 *   2. latency: events recorded one per transaction at a steady rate, each woken after its
 *      commit; the time from the event row to its first attempt (p50, p99);
 *   3. memory: the heap and RSS of the process running the delivery worker, sampled during the
 *      throughput run.
 *
 *   npm run bench -- webhook-delivery [--deliveries 30000] [--rate 1000] [--seconds 10] [--profile DIR]
 *   BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres (default)
 *
 * --profile writes a CPU profile of this process during the throughput phase to DIR (open it in
 * Chrome's DevTools or summarize it with `node bench/support/profile-summary.mjs FILE`).
 */
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { issueApiKey } from "../server/auth/api-keys";
import { metrics } from "../server/metrics/registry";
import { customerRef, recordEvent } from "../server/events/outbox";
import { startDeliveryWorker } from "../server/webhooks/delivery-worker";
import { createEndpoint } from "../server/webhooks/endpoints";
import { BENCH_ADMIN_URL, createBenchDatabase, createBenchPartner, reportResult } from "./support/bench-kit";

const { values } = parseArgs({
  options: {
    deliveries: { type: "string", default: "30000" },
    rate: { type: "string", default: "1000" },
    seconds: { type: "string", default: "10" },
    profile: { type: "string" },
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

/** Runs the bare reference with `deliveries` rows in a process of its own; its deliveries/s. */
function bareReference(deliveries: number): number {
  const output = execFileSync(process.execPath, [path.join("bench", "support", "bare-delivery.mjs"), String(deliveries), BENCH_ADMIN_URL], {
    encoding: "utf8",
  });
  const rate = /= (\d+) deliveries\/s/.exec(output)?.[1];
  if (!rate) throw new Error(`the bare reference printed no rate: ${output}`);
  console.log(`  ${output.trim()}`);
  return Number(rate);
}

/** CPU seconds (user + system) the given processes have used so far; they run on this machine (Linux /proc). */
function cpuSecondsOf(pids: number[]): number {
  const ticksPerSecond = 100;
  let ticks = 0;
  for (const pid of pids) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // a session that ended meanwhile
    }
  }
  return ticks / ticksPerSecond;
}

function loadAverage(): string {
  return os
    .loadavg()
    .map((load) => load.toFixed(2))
    .join(" ");
}

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
    const bareBefore = bareReference(DELIVERIES);
    const memory: Array<{ heap: number; rss: number }> = [];
    const sampler = setInterval(() => {
      const usage = process.memoryUsage();
      memory.push({ heap: usage.heapUsed, rss: usage.rss });
    }, 1000);
    const profiler = values.profile ? new Session() : undefined;
    if (profiler) {
      profiler.connect();
      await profiler.post("Profiler.enable");
      await profiler.post("Profiler.start");
    }
    const sessionCpu = { pids: [] as number[], before: 0 };
    const processCpu = process.cpuUsage();
    const started = performance.now();
    const deliveryWorker = startDeliveryWorker(db);
    let delivered = 0;
    let reported = { at: started, delivered: 0 };
    // Progress from the worker's own counter of recorded outcomes (this process), not a count in the
    // database, whose scans would add to the PostgreSQL time measured; the database confirms the end.
    const deliveredSoFar = async () =>
      (await metrics().webhookAttempts.get()).values.filter((v) => v.labels.outcome === "delivered").reduce((sum, v) => sum + v.value, 0);
    const deliveredBefore = await deliveredSoFar();
    while (delivered < DELIVERIES) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      delivered = (await deliveredSoFar()) - deliveredBefore;
      if (delivered >= DELIVERIES) delivered = await db.webhookDelivery.count({ where: { status: "delivered" } });
      if (sessionCpu.pids.length === 0) {
        // the sessions the worker opened (the pool keeps them): their CPU time from here on
        const sessions = await db.$queryRaw<Array<{ pid: number }>>`SELECT pid FROM pg_stat_activity WHERE datname = current_database()`;
        sessionCpu.pids = sessions.map((session) => session.pid);
        sessionCpu.before = cpuSecondsOf(sessionCpu.pids);
      }
      if (performance.now() - reported.at >= 10_000) {
        const rate = ((delivered - reported.delivered) * 1000) / (performance.now() - reported.at);
        console.log(
          `  ${delivered} delivered, ${rate.toFixed(0)}/s over the last ${((performance.now() - reported.at) / 1000).toFixed(0)} s`,
        );
        reported = { at: performance.now(), delivered };
      }
    }
    const seconds = (performance.now() - started) / 1000;
    // and those it opened later, all of whose time counts
    const laterSessions = (await db.$queryRaw<Array<{ pid: number }>>`SELECT pid FROM pg_stat_activity WHERE datname = current_database()`)
      .map((session) => session.pid)
      .filter((pid) => !sessionCpu.pids.includes(pid));
    const databaseCpu = cpuSecondsOf([...sessionCpu.pids, ...laterSessions]) - sessionCpu.before;
    const { user, system } = process.cpuUsage(processCpu);
    clearInterval(sampler);
    if (profiler && values.profile) {
      const { profile } = await profiler.post("Profiler.stop");
      mkdirSync(values.profile, { recursive: true });
      const file = path.join(values.profile, `webhook-delivery-${new Date().toISOString().replace(/[:.]/g, "-")}.cpuprofile`);
      writeFileSync(file, JSON.stringify(profile));
      profiler.disconnect();
      console.log(`  CPU profile of the throughput phase: ${file}`);
    }
    const failed = await db.webhookDelivery.count({ where: { status: "failed" } });
    const bareAfter = bareReference(DELIVERIES);
    const bare = (bareBefore + bareAfter) / 2;
    const rate = DELIVERIES / seconds;
    console.log(
      `throughput: ${DELIVERIES} deliveries in ${seconds.toFixed(1)} s = ${rate.toFixed(0)} deliveries/s ` +
        `(${(rate / bare).toFixed(2)} of the bare reference, ${bare.toFixed(0)}/s) (failed: ${failed}); ` +
        `CPU per delivery: this process ${((user + system) / DELIVERIES).toFixed(0)} µs, PostgreSQL ${((databaseCpu * 1e6) / DELIVERIES).toFixed(0)} µs ` +
        `(load average ${loadAverage()})`,
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
    reportResult("webhook-delivery", {
      deliveries: DELIVERIES,
      seconds: Number(seconds.toFixed(1)),
      deliveriesPerSecond: Math.round(rate),
      bareDeliveriesPerSecond: Math.round(bare),
      ratioOfBare: Number((rate / bare).toFixed(2)),
      failed,
      cpuMicrosPerDelivery: { process: Math.round((user + system) / DELIVERIES), postgres: Math.round((databaseCpu * 1e6) / DELIVERIES) },
      heapMiB: {
        firstQuarter: Number(mb(avg(memory.slice(0, quarter), "heap"))),
        lastQuarter: Number(mb(avg(memory.slice(-quarter), "heap"))),
        max: Number(mb(Math.max(...memory.map((m) => m.heap)))),
      },
      firstAttempt: {
        ratePerSecond: RATE,
        events: latencies.length,
        p50Ms: Math.round(percentile(latencies, 50)),
        p99Ms: Math.round(percentile(latencies, 99)),
        maxMs: Math.round(latencies.at(-1)!),
      },
    });
  } finally {
    receiver?.kill();
    await drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
