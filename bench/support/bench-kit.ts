import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDatabase, type Database, type Db } from "../../server/db/client";
import { createDistributor } from "../../server/distributors/distributors";
import { createPartner } from "../../server/distributors/partners";
import { prepareDatabase } from "../../server/startup/database";
import { createDatabase, dropDatabase } from "../../scripts/lib/scratch-database";

/** The PostgreSQL server the benchmarks create their own databases on (and drop afterwards). */
export const BENCH_ADMIN_URL = process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

/** A fresh migrated PostgreSQL database for one benchmark run; `drop()` removes it. */
export async function createBenchDatabase(label: string): Promise<{ database: Database; url: string; drop(): Promise<void> }> {
  const name = `bench_${label}_${Date.now().toString(36)}_${randomBytes(2).toString("hex")}`;
  const url = await createDatabase(BENCH_ADMIN_URL, name);
  const database = await openDatabase({ url });
  await prepareDatabase(database);
  return {
    database,
    url,
    async drop() {
      await database.close();
      await dropDatabase(BENCH_ADMIN_URL, name);
    },
  };
}

/** Samples the resident set size every 50 ms; `peak()` is the highest seen. */
export function rssSampler() {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  return {
    peak: () => Math.max(peak, process.memoryUsage().rss),
    stop: () => clearInterval(timer),
  };
}

export const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

/**
 * Prints a benchmark's figures (one JSON line) and keeps them in bench/results/, with what the
 * figures depend on: when, which Node, how busy the machine was (docs/measures.md, "How to measure").
 */
export function reportResult(name: string, figures: Record<string, unknown>): void {
  const machine = {
    at: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    loadAverage: os.loadavg().map((load) => Number(load.toFixed(2))),
  };
  const line = JSON.stringify({ bench: name, ...figures, machine });
  console.log(line);
  mkdirSync("bench/results", { recursive: true });
  writeFileSync(path.join("bench/results", `${name}-${new Date().toISOString().replace(/[:.]/g, "-")}.json`), line + "\n");
}

/**
 * Busy, stolen and total CPU time of the whole machine (Linux /proc/stat), undefined elsewhere.
 * Steal is time a virtual CPU wanted to run and the hypervisor ran something else.
 */
export function machineCpuTimes(): { busy: number; steal: number; total: number } | undefined {
  try {
    const fields = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
    const total = fields.reduce((sum, value) => sum + value, 0);
    const idle = fields[3]! + (fields[4] ?? 0); // idle + iowait
    return { busy: total - idle, steal: fields[7] ?? 0, total };
  } catch {
    return undefined;
  }
}

export type MachineCpuTimes = ReturnType<typeof machineCpuTimes>;

/** The percentage of the machine's CPU time between two readings that was busy (or stolen). */
export function machineCpuShare(before: MachineCpuTimes, after: MachineCpuTimes, part: "busy" | "steal"): number | undefined {
  return before && after ? Math.round((100 * (after[part] - before[part])) / (after.total - before.total)) : undefined;
}

/** An active customer on the default plan, created directly (no onboarding events), for a benchmark's partner. */
export async function createBenchCustomer(db: Db, partnerId: string, reference: string, companyName: string) {
  const plan = await db.plan.findFirstOrThrow({ where: { isSystemDefault: true } });
  return db.customer.create({
    data: {
      partnerId,
      reference,
      companyName,
      contactEmail: `${reference.toLowerCase()}@bench.example`,
      currencyCode: "USD",
      planId: plan.id,
      status: "active",
    },
  });
}

/** The distributor, partner and active customer the webhook benchmarks record events for. */
export async function createBenchPartner(db: Db) {
  const distributor = await createDistributor(db, { name: "Bench distributor" });
  const partner = await createPartner(db, { distributorId: distributor.id, name: "Bench partner" });
  const customer = await createBenchCustomer(db, partner.id, "BENCH-1", "Bench Ltd");
  return { distributor, partner, customer };
}
