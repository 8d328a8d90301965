/**
 * Incremental matching (docs/breaches.md): with 100,000 monitored addresses of active customers
 * (10,000 customers with 10 addresses and a domain each), an import of 1,000,000 new exposures,
 * 1 % of them on monitored addresses, has every affected customer's events queued within 60 s of
 * the import's commit, and costs the unaffected customers nothing.
 *
 * Builds the customers (and 1,000 prospects, whose addresses the imports also expose), then runs
 * two imports through the real `import-breaches` path: a first one that fills the index (so the
 * customers have breach instances already), and the measured one. After each import commits, the
 * matching job it queued is run by the job worker (`runDueJobs`, this kind only) and timed; then
 * the rows written are counted: customers touched, events, instances, alerts, scan jobs.
 *   npx tsx bench/breaches-match.ts [--customers 10000] [--addresses 10] [--rows 1000000] [--hit-share 0.01]
 *
 * `--stealer-logs` (issue 44 measure: 10,000,000 stealer-log rows against 100,000 monitored
 * addresses, matched < 60 s after the import commits): the imports go through the real
 * `import-stealer-logs` path instead (email,website_domain,captured_at; one stealer-log breach,
 * committed a chunk at a time, each chunk queuing its matching), every monitored address is at the
 * customer's domain and that domain is verified (stealer logs are recorded for nothing else), and
 * the clock runs from the last chunk's commit until every matching job queued has run. Default
 * rows in this mode: 10,000,000.
 *   npx tsx bench/breaches-match.ts --stealer-logs [--rows 10000000] [--chunk-rows 2000000] ...
 */
import { randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { BUNDLED_CATALOGUE, seededRandom } from "../server/breaches/exposure-index/demo";
import { MATCH_NEW_EXPOSURES_JOB } from "../server/breaches/exposure-index/match-requests";
import { SCAN_CUSTOMER_JOB } from "../server/customers/scan-requests";
import { runImportBreaches } from "../server/cli/import-breaches";
import { runImportStealerLogs } from "../server/cli/import-stealer-logs";
import { importCatalogue } from "../server/breaches/catalogue/catalogue";
import { recountCustomerFigures } from "../server/customers/figures";
import type { Db } from "../server/db/client";
import { createDistributor } from "../server/distributors/distributors";
import { createPartner } from "../server/distributors/partners";
import { runDueJobs } from "../server/jobs/worker";
import { jobCatalogue } from "../server/startup/job-catalogue";
import { createBenchDatabase, machineCpuShare, machineCpuTimes, mib, reportResult, rssSampler } from "./support/bench-kit";

// The matching job's own log line (info) splits its time into the lookup and the writes.
process.env.LOG_LEVEL ??= "info";

const { values } = parseArgs({
  options: {
    customers: { type: "string", default: "10000" },
    addresses: { type: "string", default: "10" },
    prospects: { type: "string", default: "1000" },
    rows: { type: "string" },
    "hit-share": { type: "string", default: "0.01" },
    "stealer-logs": { type: "boolean", default: false },
    // Rows per committed chunk of the stealer-log import (its default: STEALER_LOG_CHUNK_ROWS).
    "chunk-rows": { type: "string" },
  },
});
const stealerLogs = values["stealer-logs"];
const customerCount = Number(values.customers);
const addressesPerCustomer = Number(values.addresses);
const prospectCount = Number(values.prospects);
const rows = Number(values.rows ?? (stealerLogs ? "10000000" : "1000000"));
const hitShare = Number(values["hit-share"]);
const chunkRows = values["chunk-rows"] === undefined ? undefined : Number(values["chunk-rows"]);

// Stealer logs are recorded only at a verified domain: in that mode every address is at the customer's own.
const addressOf = (customer: number, i: number) =>
  stealerLogs || i % 2 === 0 ? `user${i}@customer${customer}.example` : `person${customer}.${i}@mail${i % 7}.example`;
const STEALER_LOG_BREACH = "SynthientStealerLogThreatData";
const WEBSITES = Array.from({ length: 5_000 }, (_, i) => `site${i}.example`);
const prospectAddressOf = (prospect: number, i: number) => `staff${i}@prospect${prospect}.example`;

async function createCustomers(db: Db, partnerId: string) {
  const plan = await db.plan.findFirstOrThrow({ where: { isSystemDefault: true } });
  const active: string[] = Array.from({ length: customerCount }, () => randomUUID());
  const prospects: string[] = Array.from({ length: prospectCount }, () => randomUUID());
  const customerRow = (id: string, n: number, status: "active" | "prospect") => ({
    id,
    partnerId,
    reference: `BENCH-${status}-${n}`,
    companyName: `${status} ${n}`,
    contactEmail: `it@${status}${n}.example`,
    currencyCode: "GBP",
    planId: plan.id,
    status,
    alertRecipients: [`security@${status}${n}.example`],
  });
  const all = [...active.map((id, n) => customerRow(id, n, "active")), ...prospects.map((id, n) => customerRow(id, n, "prospect"))];
  for (let start = 0; start < all.length; start += 2_000) await db.customer.createMany({ data: all.slice(start, start + 2_000) });
  const assets = [
    ...active.flatMap((customerId, n) => [
      { customerId, kind: "domain" as const, value: `customer${n}.example`, domain: `customer${n}.example` },
      ...Array.from({ length: addressesPerCustomer }, (_, i) => addressOf(n, i)).map((value) => ({
        customerId,
        kind: "email" as const,
        value,
        domain: value.slice(value.indexOf("@") + 1),
      })),
    ]),
    ...prospects.flatMap((customerId, n) =>
      Array.from({ length: addressesPerCustomer }, (_, i) => prospectAddressOf(n, i)).map((value) => ({
        customerId,
        kind: "email" as const,
        value,
        domain: value.slice(value.indexOf("@") + 1),
      })),
    ),
  ];
  for (let start = 0; start < assets.length; start += 10_000)
    await db.monitoredAsset.createMany({ data: assets.slice(start, start + 10_000) });
  if (stealerLogs) {
    const verified = active.map((customerId, n) => ({
      customerId,
      domain: `customer${n}.example`,
      status: "verified" as const,
      method: "staff" as const,
      verifiedAt: new Date(),
      verifiedBy: "Bench",
    }));
    for (let start = 0; start < verified.length; start += 10_000)
      await db.customerDomain.createMany({ data: verified.slice(start, start + 10_000) });
  }
  await recountCustomerFigures(db);
  return { active, prospects };
}

/**
 * An accounts file (a stealer-log file with `--stealer-logs`: a random website per row) of `count` rows: `hitShare` of them on monitored addresses of active customers
 * (a random customer and address each), a tenth of that on prospects' addresses, the rest on
 * addresses nobody monitors. Returns the active customers it exposes (by their number).
 */
async function writeAccounts(file: string, count: number, seed: number, breachNames: string[]): Promise<Set<number>> {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  const exposed = new Set<number>();
  const out = createWriteStream(file, { highWaterMark: 1 << 22 });
  let chunk = stealerLogs ? "email,website_domain,captured_at\n" : "email,breach_name\n";
  // Every hitEvery-th row is on a monitored address, every (10 x hitEvery)-th + 1 on a prospect's.
  const hitEvery = Math.max(1, Math.round(1 / hitShare));
  for (let i = 0; i < count; i++) {
    let email: string;
    if (i % hitEvery === 0) {
      const customer = Math.floor(random() * customerCount);
      exposed.add(customer);
      email = addressOf(customer, Math.floor(random() * addressesPerCustomer));
    } else if (prospectCount > 0 && i % (10 * hitEvery) === 1) {
      email = prospectAddressOf(Math.floor(random() * prospectCount), Math.floor(random() * addressesPerCustomer));
    } else {
      const user = Math.floor(random() * 40_000_000);
      email = `user${user}@company${user % 250_000}.example`;
    }
    chunk += stealerLogs
      ? `${email},${pick(WEBSITES)},2025-03-${String(1 + Math.floor(random() * 28)).padStart(2, "0")}\n`
      : `${email},${pick(breachNames)}\n`;
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
      chunk = "";
    }
  }
  out.end(chunk);
  await new Promise<void>((resolve) => out.on("finish", () => resolve()));
  return exposed;
}

async function main() {
  const bench = await createBenchDatabase("match");
  const db = bench.database.prisma;
  const file = path.join(os.tmpdir(), `bench-match-${process.pid}.csv`);
  try {
    const catalogue = JSON.parse(await readFile(BUNDLED_CATALOGUE, "utf8")) as Array<{ Name: string; IsRetired: boolean }>;
    // Retired breaches are never matched; leaving them out makes "exposed" exactly the customers concerned.
    const breachNames = catalogue.filter((breach) => !breach.IsRetired).map((breach) => breach.Name);
    const distributor = await createDistributor(db, { name: "Bench distributor", domainPolicy: "trusted" });
    const partner = await createPartner(db, { distributorId: distributor.id, name: "Bench partner" });
    if (stealerLogs) await importCatalogue(db, JSON.parse(await readFile(BUNDLED_CATALOGUE, "utf8")));
    const setupStarted = performance.now();
    const customers = await createCustomers(db, partner.id);
    console.log(
      `set up ${customerCount} active customers x ${addressesPerCustomer} addresses and a domain, ${prospectCount} prospects, in ${((performance.now() - setupStarted) / 1000).toFixed(1)} s`,
    );

    for (const [run, seed] of [
      ["first import", 1],
      ["second import", 2],
    ] as const) {
      const exposedNumbers = await writeAccounts(file, rows, seed, breachNames);
      const exposed = new Set([...exposedNumbers].map((n) => customers.active[n]!));
      const quiet = { isTTY: false, write: () => true };
      const importStarted = performance.now();
      const added = stealerLogs
        ? (await runImportStealerLogs(db, { breachName: STEALER_LOG_BREACH, file }, quiet, { chunkRows })).addresses
        : (await runImportBreaches(db, { catalogueFile: BUNDLED_CATALOGUE, accountsFile: file }, quiet)).accounts;
      const committed = performance.now();
      const committedAt = (await db.$queryRaw<Array<{ now: Date }>>`SELECT now()`)[0]!.now;

      const memory = rssSampler();
      const cpuBefore = machineCpuTimes();
      const processCpuBefore = process.cpuUsage();
      let jobs = 0;
      for (let ran = -1; ran !== 0; jobs += ran) ran = await runDueJobs(db, jobCatalogue, { kinds: [MATCH_NEW_EXPOSURES_JOB] });
      const matchedSeconds = (performance.now() - committed) / 1000;
      const cpuAfter = machineCpuTimes();
      const processCpu = process.cpuUsage(processCpuBefore);
      memory.stop();

      const touched = (await db.$queryRaw<Array<{ id: string }>>`SELECT id::text FROM customers WHERE updated_at >= ${committedAt}`).map(
        (row) => row.id,
      );
      const count = async (sql: TemplateStringsArray, ...args: unknown[]) =>
        Number((await db.$queryRaw<Array<{ n: bigint }>>(sql, ...args))[0]!.n);
      const events = await count`SELECT count(*) AS n FROM outbox_events WHERE created_at >= ${committedAt}`;
      const foundEvents =
        await count`SELECT count(*) AS n FROM outbox_events WHERE created_at >= ${committedAt} AND type = 'customer.breach.found'`;
      const customersWithEvents =
        await count`SELECT count(DISTINCT customer_id) AS n FROM outbox_events WHERE created_at >= ${committedAt}`;
      reportResult(stealerLogs ? "breaches-match-stealer-logs" : "breaches-match", {
        run,
        monitoredAddresses: customerCount * addressesPerCustomer,
        activeCustomers: customerCount,
        prospects: prospectCount,
        rows,
        ...(chunkRows !== undefined && { chunkRows }),
        // Addresses new to the index (for stealer logs: new to the breach; rows carry websites).
        added,
        importSeconds: Number(((committed - importStarted) / 1000).toFixed(1)),
        // From the import's commit until the job has written every affected customer's findings.
        commitToEventsQueuedSeconds: Number(matchedSeconds.toFixed(1)),
        matchJobs: jobs,
        customersExposed: exposed.size,
        customersTouched: touched.length,
        touchedNotExposed: touched.filter((id) => !exposed.has(id)).length,
        prospectsTouched: touched.filter((id) => customers.prospects.includes(id)).length,
        customersWithEvents,
        events,
        breachFoundEvents: foundEvents,
        newInstances: await count`SELECT count(*) AS n FROM customer_breaches WHERE created_at >= ${committedAt}`,
        alertsQueued: await count`SELECT count(*) AS n FROM notifications WHERE created_at >= ${committedAt}`,
        scanJobs: await count`SELECT count(*) AS n FROM jobs WHERE kind = ${SCAN_CUSTOMER_JOB}`,
        // CPU of this process (the job: Prisma's query pipeline and the findings code) while matching.
        matchProcessCpuSeconds: Number(((processCpu.user + processCpu.system) / 1e6).toFixed(1)),
        machineBusyPercent: machineCpuShare(cpuBefore, cpuAfter, "busy"),
        machineCpuStealPercent: machineCpuShare(cpuBefore, cpuAfter, "steal"),
        peakRss: mib(memory.peak()),
        loadAverage: os
          .loadavg()
          .map((load) => load.toFixed(1))
          .join(" "),
      });
    }
  } finally {
    await rm(file, { force: true });
    await bench.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
