/**
 * Throughput of the REST stack against a bare Next.js route handler, on the production build,
 * in one run (issue: the authenticated GET should reach >= 50 % of the bare handler). The bare
 * handler (/api/live) goes through Next.js's request pipeline; REST calls, once the REST route is
 * loaded, do not (scripts/serve.ts), so they can run faster than the "bare" handler.
 *   npm run bench -- api-overhead        (or: npx tsx bench/api-overhead.ts)
 * Starts the service as `npm start` does (on a fresh embedded database, or with
 * `--postgres` on a fresh database of BENCH_DATABASE_URL's server, the production set-up), then
 * drives each URL with autocannon from this process (loopback only) and prints requests/s,
 * p50/p99 latency and the ratio to the bare handler. It also reads the server process's resident
 * memory (`npm start` ends in that one process): idle once every URL has been served, the peak
 * under the load (sampled every 100 ms) and idle again after it. Results also go to bench/results/.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import autocannon from "autocannon";
import { createDatabase, dropDatabase } from "../scripts/lib/scratch-database";
import { startServiceProcess } from "../scripts/lib/service-process";
import { BENCH_ADMIN_URL } from "./support/bench-kit";

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);

async function measure(url: string, headers: Record<string, string> = {}) {
  await autocannon({ url, headers, connections: CONNECTIONS, duration: 2 }); // warm-up
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration: DURATION_S });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { requestsPerSecond: result.requests.average, p50Ms: result.latency.p50, p99Ms: result.latency.p99 };
}

/** Resident memory of a process in MiB (Linux: /proc/<pid>/status). */
function residentMiB(pid: number): number {
  const kib = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]);
  return Math.round(kib / 1024);
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 5_000));

async function main() {
  const postgres = process.argv.includes("--postgres");
  const databaseName = `bench_api_${Date.now().toString(36)}`;
  const databaseUrl = postgres ? await createDatabase(BENCH_ADMIN_URL, databaseName) : undefined;
  const service = await startServiceProcess({
    port: Number(process.env.BENCH_PORT ?? 3290),
    dataDir: path.resolve(".data-bench"),
    databaseUrl,
    logFile: path.resolve("bench/results/server.log"),
    env: { LOG_LEVEL: "warn" },
  });
  try {
    const partner = { "SW-PARTNER-ID": service.demo.partnerId, "SW-API-KEY": service.demo.partnerKey };
    const targets = [
      { name: "bare route handler (GET /api/live)", url: `${service.baseUrl}/api/live`, headers: {} },
      { name: "GET /api/v1/health (tRPC + SELECT 1)", url: `${service.baseUrl}/api/v1/health`, headers: {} },
      { name: "authenticated partner GET (plans)", url: `${service.baseUrl}/api/v1/integrations/partner/plans`, headers: partner },
    ];
    for (const target of targets) await fetch(target.url, { headers: target.headers });
    await settle();
    const idleMiB = residentMiB(service.pid);
    let peakMiB = idleMiB;
    const sampler = setInterval(() => (peakMiB = Math.max(peakMiB, residentMiB(service.pid))), 100);
    const results = [];
    for (const target of targets) results.push({ name: target.name, ...(await measure(target.url, target.headers)) });
    clearInterval(sampler);
    await settle();
    const memory = { idleMiB, peakUnderLoadMiB: peakMiB, idleAfterLoadMiB: residentMiB(service.pid) };
    const bare = results[0]!.requestsPerSecond;
    console.log(`\n${CONNECTIONS} connections, ${DURATION_S} s each, ${postgres ? "PostgreSQL" : "embedded database"}, production build\n`);
    for (const r of results) {
      console.log(
        `${r.name.padEnd(44)} ${r.requestsPerSecond.toFixed(0).padStart(7)} req/s  p50 ${String(r.p50Ms).padStart(4)} ms  p99 ${String(r.p99Ms).padStart(4)} ms  ${((100 * r.requestsPerSecond) / bare).toFixed(0).padStart(4)} % of bare`,
      );
    }
    console.log(
      `\nserver process resident memory: idle ${memory.idleMiB} MiB, under load up to ${memory.peakUnderLoadMiB} MiB, idle after ${memory.idleAfterLoadMiB} MiB`,
    );
    mkdirSync("bench/results", { recursive: true });
    const file = path.join("bench/results", `api-overhead-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
    writeFileSync(
      file,
      JSON.stringify(
        { database: postgres ? "postgresql" : "embedded", connections: CONNECTIONS, durationSeconds: DURATION_S, results, memory },
        null,
        2,
      ),
    );
    console.log(`\nwritten to ${file}`);
  } finally {
    service.stop();
    if (postgres) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await dropDatabase(BENCH_ADMIN_URL, databaseName);
    }
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
