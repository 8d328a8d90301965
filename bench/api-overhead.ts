/**
 * Throughput of the REST stack against its bare reference (bench/support/bare-rest.mjs: node:http
 * and pg answering the same threat-score GET with no service code), on the production build, in
 * one run. The goal (docs/measures.md, "Goals"): the service's authenticated GET
 * (`GET /api/v1/integrations/customer/{id}/threat-score`) at >= 0.5 of the bare reference's
 * requests/s in the same run, p99 under 10 ms at 32 connections.
 *   npm run bench -- api-overhead [--postgres] [--profile DIR]        (or: npx tsx bench/api-overhead.ts)
 * Starts the service as `npm start` does (on a fresh embedded database, or with `--postgres` on a
 * fresh database of BENCH_DATABASE_URL's server, the production set-up), onboards one customer of
 * the demo partner through the API, and on PostgreSQL starts the bare reference on the same
 * database (the embedded database cannot be shared with another process, so there the ratios are
 * to the service's own threat-score GET). Then drives each URL with autocannon from this process
 * (loopback only): the threat-score GET and the bare reference alternately, BENCH_ROUNDS rounds
 * each, then the other rows once (a bare Next.js route handler, which goes through Next.js's
 * request pipeline where REST calls do not (scripts/serve.ts); health; the partner plans list).
 * Prints requests/s, p50/p99 latency and the ratio to the bare reference for every round and row.
 * It also reads the server process's resident memory (`npm start` ends in that one process): idle
 * once every URL has been served, the peak under the load (sampled every 100 ms) and idle again
 * after it. Results also go to bench/results/.
 * --profile runs the server with `--cpu-prof` and measures the threat-score rounds only (and the
 * reference's), so the profile written to DIR when the server exits is that path's (summarize it
 * with `node bench/support/profile-summary.mjs FILE`).
 */
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import autocannon from "autocannon";
import { createDatabase, dropDatabase } from "../scripts/lib/scratch-database";
import { startServiceProcess } from "../scripts/lib/service-process";
import { BENCH_ADMIN_URL } from "./support/bench-kit";

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const BARE_PORT = Number(process.env.BENCH_BARE_PORT ?? Number(process.env.BENCH_PORT ?? 3290) + 1);

interface Target {
  name: string;
  url: string;
  headers: Record<string, string>;
}

interface Measured {
  name: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** CPU time (user + system) of the answering process per call: steadier than requests/s on a shared machine. */
  cpuMicrosecondsPerCall: number;
}

/** `pid` is the process answering the target (the service's, or the bare reference's). */
async function measure(target: Target, pid: number): Promise<Measured> {
  const { url, headers } = target;
  await autocannon({ url, headers, connections: CONNECTIONS, duration: 2 }); // warm-up
  const cpuBefore = cpuMilliseconds(pid);
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration: DURATION_S });
  const cpuMicrosecondsPerCall = Math.round((1000 * (cpuMilliseconds(pid) - cpuBefore)) / result.requests.total);
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return {
    name: target.name,
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    cpuMicrosecondsPerCall,
  };
}

/** User + system CPU time of a process so far (Linux: /proc/<pid>/stat, in clock ticks of 10 ms). */
function cpuMilliseconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Resident memory of a process in MiB (Linux: /proc/<pid>/status). */
function residentMiB(pid: number): number {
  const kib = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]);
  return Math.round(kib / 1024);
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 5_000));

async function onboardCustomer(baseUrl: string, partner: Record<string, string>): Promise<string> {
  const response = await fetch(`${baseUrl}/api/v1/integrations/customer/onboard`, {
    method: "POST",
    headers: { ...partner, "Content-Type": "application/json" },
    body: JSON.stringify({
      companyName: "Bench Ltd",
      contactEmail: "it@bench.example",
      customerReference: "BENCH-1",
      assetsDomains: ["bench.example"],
      price: 0,
      currencyCode: "USD",
    }),
  });
  if (!response.ok) throw new Error(`onboarding the bench customer: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { customerId: string }).customerId;
}

/** The bare reference on `databaseUrl`, listening once this resolves; `stop()` ends it. */
async function startBareReference(databaseUrl: string, partnerId: string, apiKey: string) {
  const child = spawn(process.execPath, ["bench/support/bare-rest.mjs", String(BARE_PORT), databaseUrl, partnerId, apiKey], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the bare reference exited (${code})`)));
    child.stdout!.once("data", () => resolve());
  });
  return { baseUrl: `http://127.0.0.1:${BARE_PORT}`, pid: child.pid!, stop: () => child.kill("SIGTERM") };
}

const ratio = (r: Measured, reference: number) => (r.requestsPerSecond / reference).toFixed(2);

function line(r: Measured, reference: number, referenceName: string): string {
  return `${r.name.padEnd(46)} ${r.requestsPerSecond.toFixed(0).padStart(7)} req/s  p50 ${String(r.p50Ms).padStart(3)} ms  p99 ${String(r.p99Ms).padStart(3)} ms  ${String(r.cpuMicrosecondsPerCall).padStart(4)} µs CPU/call  ${ratio(r, reference)} of ${referenceName}`;
}

async function main() {
  const postgres = process.argv.includes("--postgres");
  const profileAt = process.argv.indexOf("--profile");
  const profileDir = profileAt === -1 ? undefined : path.resolve(process.argv[profileAt + 1] ?? "bench/results/profiles");
  const databaseName = `bench_api_${Date.now().toString(36)}`;
  const databaseUrl = postgres ? await createDatabase(BENCH_ADMIN_URL, databaseName) : undefined;
  const service = await startServiceProcess({
    port: Number(process.env.BENCH_PORT ?? 3290),
    dataDir: path.resolve(".data-bench"),
    databaseUrl,
    logFile: path.resolve("bench/results/server.log"),
    env: { LOG_LEVEL: "warn" },
    nodeArgs: profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [],
  });
  let bareReference: Awaited<ReturnType<typeof startBareReference>> | undefined;
  try {
    const partner = { "SW-PARTNER-ID": service.demo.partnerId, "SW-API-KEY": service.demo.partnerKey };
    const customerId = await onboardCustomer(service.baseUrl, partner);
    if (databaseUrl) bareReference = await startBareReference(databaseUrl, service.demo.partnerId, service.demo.partnerKey);
    const threatScore: Target = {
      name: "authenticated partner GET (threat-score)",
      url: `${service.baseUrl}/api/v1/integrations/customer/${customerId}/threat-score`,
      headers: partner,
    };
    // Same headers as the service gets (the reference compares them in lower case, as Node gives them).
    const bare: Target | undefined = bareReference && {
      name: "bare reference (node:http + pg)",
      url: `${bareReference.baseUrl}/customer/${customerId}/threat-score`,
      headers: partner,
    };
    const others: Target[] = profileDir
      ? []
      : [
          { name: "bare Next.js route handler (GET /api/live)", url: `${service.baseUrl}/api/live`, headers: {} },
          { name: "GET /api/v1/health (tRPC + SELECT 1)", url: `${service.baseUrl}/api/v1/health`, headers: {} },
          { name: "authenticated partner GET (plans)", url: `${service.baseUrl}/api/v1/integrations/partner/plans`, headers: partner },
        ];
    for (const target of [threatScore, ...(bare ? [bare] : []), ...others]) {
      const response = await fetch(target.url, { headers: target.headers });
      if (!response.ok) throw new Error(`${target.url}: ${response.status} ${await response.text()}`);
    }
    await settle();
    const idleMiB = residentMiB(service.pid);
    let peakMiB = idleMiB;
    const sampler = setInterval(() => (peakMiB = Math.max(peakMiB, residentMiB(service.pid))), 100);
    const rounds: { service: Measured; bare?: Measured }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      rounds.push({ service: await measure(threatScore, service.pid), bare: bare && (await measure(bare, bareReference!.pid)) });
    }
    const results: Measured[] = [];
    for (const target of others) results.push(await measure(target, service.pid));
    clearInterval(sampler);
    await settle();
    const memory = { idleMiB, peakUnderLoadMiB: peakMiB, idleAfterLoadMiB: residentMiB(service.pid) };

    const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
    const serviceMean = mean(rounds.map((r) => r.service.requestsPerSecond));
    const bareMean = bare ? mean(rounds.map((r) => r.bare!.requestsPerSecond)) : undefined;
    const reference = bareMean ?? serviceMean;
    const referenceName = bareMean ? "bare" : "threat-score";
    console.log(
      `\n${CONNECTIONS} connections, ${DURATION_S} s each, ${postgres ? "PostgreSQL" : "embedded database (no bare reference: it runs on PostgreSQL only)"}, production build, load average ${loadAverage()}\n`,
    );
    rounds.forEach((r, index) => {
      const roundReference = r.bare?.requestsPerSecond ?? reference;
      console.log(`round ${index + 1}`);
      console.log("  " + line(r.service, roundReference, referenceName));
      if (r.bare) console.log("  " + line(r.bare, roundReference, referenceName));
    });
    const across = (side: "service" | "bare", name: string): Measured => ({
      name,
      requestsPerSecond: mean(rounds.map((r) => r[side]!.requestsPerSecond)),
      p50Ms: Math.max(...rounds.map((r) => r[side]!.p50Ms)),
      p99Ms: Math.max(...rounds.map((r) => r[side]!.p99Ms)),
      cpuMicrosecondsPerCall: Math.round(mean(rounds.map((r) => r[side]!.cpuMicrosecondsPerCall))),
    });
    const summary: Measured[] = [across("service", threatScore.name), ...(bare ? [across("bare", bare.name)] : []), ...results];
    console.log(`\nall rounds (threat-score and bare: mean req/s and CPU, worst p50 and p99), then the other rows\n`);
    for (const r of summary) console.log(line(r, reference, referenceName));
    console.log(
      `\nserver process resident memory: idle ${memory.idleMiB} MiB, under load up to ${memory.peakUnderLoadMiB} MiB, idle after ${memory.idleAfterLoadMiB} MiB`,
    );
    mkdirSync("bench/results", { recursive: true });
    const file = path.join("bench/results", `api-overhead-${new Date().toISOString().replace(/[:.]/g, "-")}.json`);
    writeFileSync(
      file,
      JSON.stringify(
        {
          database: postgres ? "postgresql" : "embedded",
          connections: CONNECTIONS,
          durationSeconds: DURATION_S,
          loadAverage: loadAverage(),
          rounds,
          results: summary.map((r) => ({ ...r, ratio: Number(ratio(r, reference)), ratioTo: referenceName })),
          memory,
        },
        null,
        2,
      ),
    );
    console.log(`\nwritten to ${file}`);
    if (profileDir) console.log(`the server's CPU profile goes to ${profileDir} as it exits`);
  } finally {
    bareReference?.stop();
    service.stop();
    if (postgres) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await dropDatabase(BENCH_ADMIN_URL, databaseName);
    }
  }
}

function loadAverage(): string {
  return readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
