/**
 * breach/check latency (issue 4 measure: p99 < 10 ms at 500 req/s). Starts the service as
 * `npm start` does (production build, scripts/serve.ts) on a fresh PostgreSQL database holding
 * EXPOSURES exposures, then sends breach/check at a steady RATE from a separate process for
 * SECONDS (after a warm-up), addresses that are and are not exposed, and times every answer from
 * when it was due (bench/support/open-loop.ts). With --in-process the REST dispatcher is served
 * from this process instead (no Next.js; for profiling with node --cpu-prof). With --range it
 * sends breach/range (GET .../breach/range/{prefix}; the same goal) instead: prefixes of exposed
 * addresses and of others, half each.
 *   npm run bench -- breach-check [--rate 500] [--seconds 30] [--exposures 1000000] [--in-process] [--range]
 */
import { createHash } from "node:crypto";
import path from "node:path";
import { parseArgs } from "node:util";
import { appRouter } from "../server/api/root";
import { createRestDispatcher } from "../server/api/rest/dispatcher";
import { issueApiKey } from "../server/auth/api-keys";
import { importCatalogue } from "../server/breaches/catalogue/catalogue";
import { BUNDLED_CATALOGUE, seededRandom } from "../server/breaches/exposure-index/demo";
import { insertExposures, type Exposure } from "../server/breaches/exposure-index/exposures";
import { createDistributor } from "../server/distributors/distributors";
import { createPartner } from "../server/distributors/partners";
import { startServiceProcess } from "../scripts/lib/service-process";
import { serveRestOnLoopback } from "../test/helpers/http";
import { readFile } from "node:fs/promises";
import { createBenchDatabase, reportResult } from "./support/bench-kit";
import { runOpenLoop, type OpenLoopRequest } from "./support/open-loop";

const { values } = parseArgs({
  options: {
    rate: { type: "string", default: "500" },
    seconds: { type: "string", default: "30" },
    exposures: { type: "string", default: "1000000" },
    "in-process": { type: "boolean", default: false },
    range: { type: "boolean", default: false },
  },
});
const rate = Number(values.rate);
const exposureCount = Number(values.exposures);
const inProcess = values["in-process"];
const rangeMode = values.range;
const name = rangeMode ? "breach-range" : "breach-check";

/** One breach/check body, or the breach/range path of the same address's SHA-1 prefix. */
function lookupOf(email: string, headers: Record<string, string>): OpenLoopRequest {
  if (!rangeMode) return { method: "POST", path: "/api/v1/integrations/breach/check", headers, body: JSON.stringify({ email }) };
  const prefix = createHash("sha1").update(email).digest("hex").slice(0, 6).toUpperCase();
  const { "content-type": _, ...withoutBody } = headers;
  return { method: "GET", path: `/api/v1/integrations/breach/range/${prefix}`, headers: withoutBody };
}
// The highest allowed limit: none is refused, and the limiter still runs (one counter query per lease of 100 calls).
const RATE_LIMIT = "1000000";

async function main() {
  const bench = await createBenchDatabase("check");
  const db = bench.database.prisma;
  let stopServer: () => Promise<void> = async () => undefined;
  try {
    await importCatalogue(db, JSON.parse(await readFile(BUNDLED_CATALOGUE, "utf8")));
    const breaches = (await db.breach.findMany({ select: { id: true } })).map((row) => row.id);
    const random = seededRandom(11);
    const batch: Exposure[] = [];
    for (let i = 0; i < exposureCount; i++) {
      batch.push({ email: `user${i}@company${i % 50_000}.example`, breachId: breaches[Math.floor(random() * breaches.length)]! });
      if (batch.length === 20_000 || i === exposureCount - 1) await insertExposures(db, batch.splice(0));
    }
    // Settle the import as a running database would have (vacuumed, written out), so that the
    // autovacuum and checkpoint it triggers do not land inside the measured run.
    await db.$executeRawUnsafe("VACUUM (ANALYZE) breach_exposures");
    await db.$executeRawUnsafe("CHECKPOINT");
    let baseUrl: string;
    let partner: { id: string; apiKey: string };
    if (inProcess) {
      process.env.BREACH_CHECK_RATE_LIMIT = RATE_LIMIT;
      const distributor = await createDistributor(db, { name: "Bench distributor" });
      const { id } = await createPartner(db, { distributorId: distributor.id, name: "Bench partner" });
      partner = { id, apiKey: (await issueApiKey(db, { partnerId: id })).apiKey };
      const server = await serveRestOnLoopback(createRestDispatcher({ router: appRouter, getDb: () => db }));
      baseUrl = server.baseUrl;
      stopServer = () => server.close();
    } else {
      // The service seeds its demo organization on this database (no distributor yet); its partner key is used.
      const service = await startServiceProcess({
        port: Number(process.env.BENCH_PORT ?? 3291),
        dataDir: path.resolve(".data-bench"),
        databaseUrl: bench.url,
        logFile: path.resolve("bench/results/server.log"),
        env: { LOG_LEVEL: "warn", BREACH_CHECK_RATE_LIMIT: RATE_LIMIT },
      });
      baseUrl = service.baseUrl;
      partner = { id: service.demo.partnerId, apiKey: service.demo.partnerKey };
      stopServer = async () => service.stop();
    }

    const headers = { "content-type": "application/json", "SW-PARTNER-ID": partner.id, "SW-API-KEY": partner.apiKey };
    // breach/check keeps its addresses as measured so far; breach/range asks for indexed ones (as seeded above).
    const exposedAddress = (i: number) => {
      const n = Math.floor(random() * exposureCount);
      return rangeMode ? `user${n}@company${n % 50_000}.example` : `user${n}@company${i}.example`;
    };
    const requests: OpenLoopRequest[] = Array.from({ length: 200 }, (_, i) =>
      lookupOf(i % 2 === 0 ? exposedAddress(i) : `nobody${i}@nowhere.example`, headers),
    );
    // One request at a time first: checks the answers and gives the unloaded latency.
    const sequential: number[] = [];
    for (let i = 0; i < 400; i++) {
      const request = requests[i % requests.length]!;
      const started = performance.now();
      const probe = await fetch(baseUrl + request.path, { method: request.method, headers: request.headers, body: request.body });
      if (probe.status !== 200) throw new Error(`${request.path} answered ${probe.status}: ${await probe.text()}`);
      await probe.arrayBuffer();
      sequential.push(performance.now() - started);
    }
    sequential.sort((a, b) => a - b);
    const result = await runOpenLoop({ baseUrl, requests, rate, connections: 64, warmUpSeconds: 5, seconds: Number(values.seconds) });
    reportResult(name, {
      server: inProcess ? "REST dispatcher in the bench process" : "production server (npm start)",
      exposures: exposureCount,
      targetRate: rate,
      ...result,
      sequentialLatencyMs: { p50: Number(sequential[199]!.toFixed(2)), p99: Number(sequential[395]!.toFixed(2)) },
    });
  } finally {
    await stopServer();
    await new Promise((resolve) => setTimeout(resolve, 500));
    await bench.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
