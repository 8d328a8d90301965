/**
 * Stealer-log import throughput (issue 44 measure: 10,000,000 stealer-log rows at >= 100,000
 * rows/s into PostgreSQL). Writes a CSV of ROWS captures (email,website_domain,captured_at; about
 * three websites per address, random order, seeded), then runs the real `import-stealer-logs`
 * path into a fresh database holding the bundled catalogue and reports rows/s.
 *   npx tsx bench/stealer-logs-import.ts [--rows 10000000] [--keep-file]
 */
import { createWriteStream } from "node:fs";
import { readFile, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { importCatalogue } from "../server/breaches/catalogue/catalogue";
import { BUNDLED_CATALOGUE, seededRandom } from "../server/breaches/exposure-index/demo";
import { runImportStealerLogs } from "../server/cli/import-stealer-logs";
import { createBenchDatabase, machineCpuShare, machineCpuTimes, mib, reportResult, rssSampler } from "./support/bench-kit";

const { values } = parseArgs({
  options: {
    rows: { type: "string", default: "10000000" },
    "keep-file": { type: "boolean", default: false },
  },
});
const rows = Number(values.rows);
const BREACH = "SynthientStealerLogThreatData";
const WEBSITES = Array.from({ length: 5_000 }, (_, i) => `site${i}.example`);

async function writeStealerCsv(file: string, count: number) {
  const random = seededRandom(44);
  const out = createWriteStream(file, { highWaterMark: 1 << 22 });
  const addresses = Math.max(1, Math.floor(count / 3));
  let chunk = "email,website_domain,captured_at\n";
  for (let i = 0; i < count; i++) {
    const user = Math.floor(random() * addresses);
    const day = 1 + Math.floor(random() * 28);
    chunk += `user${user}@company${user % 250_000}.example,${WEBSITES[Math.floor(random() * WEBSITES.length)]},2025-03-${String(day).padStart(2, "0")}\n`;
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
      chunk = "";
    }
  }
  out.end(chunk);
  await new Promise<void>((resolve) => out.on("finish", () => resolve()));
}

async function main() {
  const file = path.join(os.tmpdir(), `bench-stealer-logs-${rows}.csv`);
  if (!(await stat(file).catch(() => undefined))) {
    console.log(`writing ${rows.toLocaleString("en-GB")} rows to ${file} ...`);
    await writeStealerCsv(file, rows);
  }
  const bench = await createBenchDatabase("stealer");
  const memory = rssSampler();
  try {
    const db = bench.database.prisma;
    await importCatalogue(db, JSON.parse(await readFile(BUNDLED_CATALOGUE, "utf8")));
    const cpuBefore = machineCpuTimes();
    const started = performance.now();
    const result = await runImportStealerLogs(
      db,
      { breachName: BREACH, file },
      { isTTY: false, write: (text) => process.stderr.write(text) },
    );
    const seconds = (performance.now() - started) / 1000;
    const cpuAfter = machineCpuTimes();
    reportResult("stealer-logs-import", {
      ...result,
      seconds: Number(seconds.toFixed(1)),
      rowsPerSecond: Math.round(rows / seconds),
      storedRows: await db.stealerLogExposure.count(),
      storedAddresses: await db.breachExposure.count(),
      machineBusyPercent: machineCpuShare(cpuBefore, cpuAfter, "busy"),
      machineCpuStealPercent: machineCpuShare(cpuBefore, cpuAfter, "steal"),
      loadAverage: os
        .loadavg()
        .map((load) => load.toFixed(1))
        .join(" "),
      peakRss: mib(memory.peak()),
    });
  } finally {
    memory.stop();
    await bench.drop();
    if (!values["keep-file"]) await rm(file, { force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
