/**
 * Benchmarks of the partner customer API on PostgreSQL (issue 3's measures):
 *   - list partner customers, page 1 and page 500 (pageSize 20): p99 < 50 ms
 *   - partner analytics: < 100 ms
 *   - onboarding: >= 200 customers/s sustained
 * with 100,000 customers under one partner. Everything goes through the real REST stack over
 * HTTP on 127.0.0.1 (dispatcher, authentication, procedures, services), served by a child
 * process of its own while this one generates the load.
 *
 *   npx tsx bench/customers.ts            (BENCH_DATABASE_URL, default postgresql://postgres@127.0.0.1:5432/postgres)
 *
 * A database of its own is created on that server and dropped afterwards. Results are printed
 * and written to bench/results/customers-<time>.json.
 */
import { fork } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { appRouter } from "../server/api/root";
import { createRestDispatcher } from "../server/api/rest/dispatcher";
import { issueApiKey } from "../server/auth/api-keys";
import { recountCustomerFigures } from "../server/customers/figures";
import { openDatabase, type Db } from "../server/db/client";
import { createDistributor } from "../server/distributors/distributors";
import { createPartner } from "../server/distributors/partners";
import { serveRestRequest } from "../server/http/rest-node";
import { createBenchDatabase } from "./support/bench-kit";

// one info line per onboarded customer would drown the figures
process.env.LOG_LEVEL ??= "warn";

const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 100_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);

/** 100,000 customers of one partner: a domain and two e-mail addresses each, breaches on every 5th. */
async function seed(db: Db, partnerId: string) {
  const plan = await db.plan.findFirstOrThrow({ where: { isSystemDefault: true } });
  await db.$executeRaw`
    INSERT INTO customers (partner_id, reference, company_name, contact_email, currency_code, plan_id, status, price, created_at, updated_at)
    SELECT ${partnerId}::uuid, 'BENCH-' || g, 'Company ' || g, 'owner' || g || '@c' || g || '.example', 'USD', ${plan.id}::uuid,
           (CASE WHEN g % 10 = 0 THEN 'prospect' WHEN g % 25 = 0 THEN 'inactive' ELSE 'active' END)::customer_status,
           10, now() - make_interval(secs => g), now()
    FROM generate_series(1, ${CUSTOMERS}::int) AS g`;
  await db.$executeRaw`
    INSERT INTO monitored_assets (customer_id, kind, value, domain)
    SELECT c.id, a.kind::asset_kind, a.value, split_part(c.contact_email, '@', 2)
    FROM customers c
    CROSS JOIN LATERAL (VALUES
      ('domain', split_part(c.contact_email, '@', 2)),
      ('email', 'alice@' || split_part(c.contact_email, '@', 2)),
      ('email', 'bob@' || split_part(c.contact_email, '@', 2))) AS a(kind, value)`;
  await db.$executeRaw`
    INSERT INTO breaches (name, title, breach_date, added_date, modified_date, updated_at)
    SELECT 'Bench' || g, 'Bench breach ' || g, date '2020-01-01' + g, now(), now(), now() FROM generate_series(1, 50) AS g`;
  await db.$executeRaw`
    INSERT INTO customer_breaches (customer_id, breach_id, emails, resolved, updated_at)
    SELECT c.id, b.id, ARRAY['alice@' || split_part(c.contact_email, '@', 2)], b.name = 'Bench2', now()
    FROM customers c JOIN breaches b ON b.name IN ('Bench1', 'Bench2')
    WHERE right(c.reference, 1) IN ('0', '5')`;
  // the rows above bypass the services, so the customers' stored figures are counted as the
  // migration that added them does (its cost at this size is printed)
  const counting = Date.now();
  const counted = await recountCustomerFigures(db);
  console.log(`counted the figures of ${counted} customers in ${((Date.now() - counting) / 1000).toFixed(1)} s`);
  // what autovacuum does on a live database: statistics, and the visibility map index-only scans need
  await db.$executeRawUnsafe("VACUUM ANALYZE");
}

async function main() {
  const { database, url, drop } = await createBenchDatabase("customers");
  let stopServer = async () => undefined as void;
  try {
    const db = database.prisma;
    const distributor = await createDistributor(db, { name: "Bench distributor" });
    const partner = await createPartner(db, { distributorId: distributor.id, name: "Bench partner" });
    const { apiKey } = await issueApiKey(db, { partnerId: partner.id });
    const headers = { "SW-PARTNER-ID": partner.id, "SW-API-KEY": apiKey };

    const started = Date.now();
    await seed(db, partner.id);
    console.log(`seeded ${CUSTOMERS} customers in ${((Date.now() - started) / 1000).toFixed(1)} s`);

    const child = fork(fileURLToPath(import.meta.url), [], {
      env: { ...process.env, BENCH_SERVE_DATABASE_URL: url.toString() },
      execArgv: ["--import", "tsx"],
    });
    const port = await new Promise<number>((resolve, reject) => {
      child.once("message", (message) => resolve((message as { port: number }).port));
      child.once("exit", (code) => reject(new Error(`bench server exited with ${code}`)));
    });
    stopServer = () =>
      new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.send("stop");
      });
    const base = `http://127.0.0.1:${port}`;

    const results: Record<string, unknown> = { customers: CUSTOMERS, secondsPerRun: SECONDS };
    const latency = async (label: string, path: string, connections: number) => {
      const result = await autocannon({ url: base + path, headers, connections, duration: SECONDS });
      if (result.non2xx > 0 || result.errors > 0) throw new Error(`${label}: ${result.non2xx} non-2xx, ${result.errors} errors`);
      const figures = {
        connections,
        requests: result.requests.total,
        perSecond: result.requests.average,
        p50Ms: result.latency.p50,
        p90Ms: result.latency.p90,
        p99Ms: result.latency.p99,
        maxMs: result.latency.max,
      };
      console.log(label, figures);
      results[label] = figures;
    };

    const paths = {
      page1: "/api/v1/integrations/partner/customers?page=1&pageSize=20",
      page500: "/api/v1/integrations/partner/customers?page=500&pageSize=20",
      page500Active: "/api/v1/integrations/partner/customers?page=500&pageSize=20&status=active",
      analytics: "/api/v1/integrations/partner/analytics",
    };
    // warm-up: the server's code paths get compiled before anything is measured
    for (const path of Object.values(paths)) await autocannon({ url: base + path, headers, connections: 2, duration: 2 });

    const analytics = (await (await fetch(base + paths.analytics, { headers })).json()) as { data: Record<string, number> };
    console.log("analytics answer", analytics.data);
    results.analyticsAnswer = analytics.data;

    for (const connections of [1, 4]) {
      await latency(`list page 1 (c=${connections})`, paths.page1, connections);
      await latency(`list page 500 (c=${connections})`, paths.page500, connections);
      await latency(`list page 500 status=active (c=${connections})`, paths.page500Active, connections);
      await latency(`analytics (c=${connections})`, paths.analytics, connections);
    }

    let sequence = 0;
    /** Onboards new customers with 16 connections for `seconds`; counts what reached the database. */
    const onboard = async (seconds: number) => {
      const before = await db.customer.count({ where: { partnerId: partner.id } });
      const runStarted = Date.now();
      const result = await autocannon({
        url: base,
        connections: 16,
        duration: seconds,
        requests: [
          {
            method: "POST",
            path: "/api/v1/integrations/customer/onboard",
            headers: { ...headers, "content-type": "application/json" },
            setupRequest: (request) => {
              const n = ++sequence;
              return {
                ...request,
                body: JSON.stringify({
                  companyName: `Onboarded ${n}`,
                  contactEmail: `it@onboard${n}.example`,
                  customerReference: `ONB-${n}`,
                  assetsDomains: [`onboard${n}.example`],
                  assetsEmails: [`ceo@onboard${n}.example`, `cfo@onboard${n}.example`],
                  price: 9.99,
                  currencyCode: "USD",
                }),
              };
            },
          },
        ],
      });
      const created = (await db.customer.count({ where: { partnerId: partner.id } })) - before;
      return {
        connections: 16,
        seconds,
        customersCreated: created,
        customersPerSecond: Math.round(created / ((Date.now() - runStarted) / 1000)),
        non2xx: result.non2xx,
        errors: result.errors,
        p50Ms: result.latency.p50,
        p99Ms: result.latency.p99,
      };
    };
    await onboard(5); // warm-up: the server's onboarding path gets compiled
    const figures = await onboard(SECONDS * 2);
    console.log("onboarding", figures);
    results.onboarding = figures;

    await mkdir("bench/results", { recursive: true });
    const file = `bench/results/customers-${new Date().toISOString().replace(/[:.]/g, "-")}.json`;
    await writeFile(file, JSON.stringify(results, null, 2) + "\n");
    console.log(`written to ${file}`);
  } finally {
    await stopServer();
    await drop();
  }
}

/**
 * The REST API in a process of its own (as in production: the load generator does not share
 * its event loop), on the bench database. Tells the parent its port; stops on "stop" once the
 * requests in flight are answered.
 */
async function serve(databaseUrl: string) {
  const database = await openDatabase({ url: databaseUrl });
  const dispatch = createRestDispatcher({ router: appRouter, getDb: () => database.prisma });
  const inFlight = new Set<Promise<void>>();
  const server = createServer((req, res) => {
    const work = serveRestRequest(dispatch, req, res);
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  process.send!({ port: (server.address() as AddressInfo).port });
  process.once("message", async () => {
    await new Promise((resolve) => server.close(resolve));
    await Promise.allSettled(inFlight);
    await database.close();
    process.exit(0);
  });
}

const serveUrl = process.env.BENCH_SERVE_DATABASE_URL;
(serveUrl ? serve(serveUrl) : main()).catch((error) => {
  console.error(error);
  process.exit(1);
});
