/**
 * breach/check latency (issue 4 measure: p99 < 10 ms at 500 req/s). Serves the real REST API
 * (dispatcher, key check, database rate limit, index lookup) over HTTP on 127.0.0.1 against a
 * PostgreSQL database with EXPOSURES exposures, and drives it with autocannon at a fixed rate
 * (a worker thread) with addresses that are and are not exposed.
 *   npx tsx bench/breach-check.ts [--rate 500] [--seconds 30] [--exposures 1000000]
 */
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { issueApiKey } from "../server/auth/api-keys";
import { appRouter, createCaller } from "../server/api/root";
import { createRestHandler } from "../server/api/rest/dispatcher";
import { importCatalogue } from "../server/breaches/catalogue";
import { BUNDLED_CATALOGUE } from "../server/breaches/demo";
import { insertExposures, type Exposure } from "../server/breaches/exposures";
import { createDistributor } from "../server/distributors/distributors";
import { createPartner } from "../server/distributors/partners";
import { serveOnLoopback } from "../test/helpers/http";
import { readFile } from "node:fs/promises";
import { createBenchDatabase, reportResult } from "./support/bench-kit";
import { seededRandom } from "../server/breaches/demo";

const { values } = parseArgs({
  options: { rate: { type: "string", default: "500" }, seconds: { type: "string", default: "30" }, exposures: { type: "string", default: "1000000" } },
});
const rate = Number(values.rate);
const exposureCount = Number(values.exposures);

async function main() {
  process.env.BREACH_CHECK_RATE_LIMIT = "1000000"; // the highest allowed: the limiter still runs on every request
  const bench = await createBenchDatabase("check");
  const db = bench.database.prisma;
  const server = await serveOnLoopback(createRestHandler({ router: appRouter, createCaller, getDb: () => db }));
  try {
    await importCatalogue(db, JSON.parse(await readFile(BUNDLED_CATALOGUE, "utf8")));
    const breaches = (await db.breach.findMany({ select: { id: true } })).map((row) => row.id);
    const random = seededRandom(11);
    const batch: Exposure[] = [];
    for (let i = 0; i < exposureCount; i++) {
      batch.push({ email: `user${i}@company${i % 50_000}.example`, breachId: breaches[Math.floor(random() * breaches.length)]! });
      if (batch.length === 20_000 || i === exposureCount - 1) await insertExposures(db, batch.splice(0));
    }
    await db.$executeRawUnsafe("ANALYZE breach_exposures");
    const distributor = await createDistributor(db, { name: "Bench distributor" });
    const partner = await createPartner(db, { distributorId: distributor.id, name: "Bench partner" });
    const { apiKey } = await issueApiKey(db, { partnerId: partner.id });
    const headers = { "content-type": "application/json", "SW-PARTNER-ID": partner.id, "SW-API-KEY": apiKey };
    const requests = Array.from({ length: 50 }, (_, i) => ({
      method: "POST" as const,
      path: "/api/v1/integrations/breach/check",
      headers,
      body: JSON.stringify({ email: i % 2 === 0 ? `user${Math.floor(random() * exposureCount)}@company${i}.example` : `nobody${i}@nowhere.example` }),
    }));
    // Warm-up, one request at a time: checks the answer and gives the unloaded latency.
    const sequential: number[] = [];
    for (let i = 0; i < 200; i++) {
      const request = requests[i % requests.length]!;
      const started = performance.now();
      const probe = await fetch(server.baseUrl + request.path, { method: "POST", headers, body: request.body });
      if (probe.status !== 200) throw new Error(`breach/check answered ${probe.status}: ${await probe.text()}`);
      await probe.arrayBuffer();
      sequential.push(performance.now() - started);
    }
    sequential.sort((a, b) => a - b);
    const cpuBefore = process.cpuUsage();
    // overallRate (a steady rate across connections) and workers are autocannon options its type definitions lack.
    const options: Parameters<typeof autocannon>[0] & { overallRate: number; workers: number } = {
      url: server.baseUrl,
      connections: 20,
      overallRate: rate,
      duration: Number(values.seconds),
      requests,
      workers: 1,
    };
    const result = await autocannon(options);
    const cpu = process.cpuUsage(cpuBefore);
    reportResult("breach-check", {
      exposures: exposureCount,
      targetRate: rate,
      achievedRate: Math.round(result.requests.average),
      requests: result.requests.total,
      non2xx: result.non2xx,
      errors: result.errors,
      // CPU of this process (the server and the autocannon worker) per request: a figure less
      // dependent on how busy the machine is than the latencies.
      cpuMsPerRequest: Number(((cpu.user + cpu.system) / 1000 / result.requests.total).toFixed(2)),
      sequentialLatencyMs: { p50: Number(sequential[99]!.toFixed(1)), p99: Number(sequential[197]!.toFixed(1)) },
      latencyMs: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max },
    });
  } finally {
    await server.close();
    await bench.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
