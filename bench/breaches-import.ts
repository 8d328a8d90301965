/**
 * Exposure import throughput (issue 4 measure: 10,000,000 exposures at >= 100,000 rows/s into
 * PostgreSQL). Writes a CSV of ROWS exposures (random order, seeded) over the bundled catalogue,
 * then runs the real `import-breaches` path into a fresh database and reports rows/s.
 * With --reimport, the same file is imported a second time into the index it filled.
 *   npx tsx bench/breaches-import.ts [--rows 10000000] [--keep-file] [--reimport]
 */
import { createWriteStream } from "node:fs";
import { readFile, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { runImportBreaches } from "../server/cli/import-breaches";
import type { Db } from "../server/db/client";
import { BUNDLED_CATALOGUE } from "../server/breaches/exposure-index/demo";
import {
  createBenchDatabase,
  machineCpuShare,
  machineCpuTimes,
  reportResult,
  type MachineCpuTimes,
  mib,
  rssSampler,
} from "./support/bench-kit";
import { seededRandom } from "../server/breaches/exposure-index/demo";

const { values } = parseArgs({
  options: {
    rows: { type: "string", default: "10000000" },
    "keep-file": { type: "boolean", default: false },
    reimport: { type: "boolean", default: false },
  },
});
const rows = Number(values.rows);

async function writeAccountsCsv(file: string, count: number) {
  const names = (JSON.parse(await readFile(BUNDLED_CATALOGUE, "utf8")) as Array<{ Name: string }>).map((breach) => breach.Name);
  const random = seededRandom(42);
  const out = createWriteStream(file, { highWaterMark: 1 << 22 });
  let chunk = "email,breach_name\n";
  for (let i = 0; i < count; i++) {
    const user = Math.floor(random() * 4_000_000);
    chunk += `user${user}@company${user % 250_000}.example,${names[Math.floor(random() * names.length)]}\n`;
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
      chunk = "";
    }
  }
  out.end(chunk);
  await new Promise<void>((resolve) => out.on("finish", () => resolve()));
}

async function main() {
  const file = path.join(os.tmpdir(), `bench-accounts-${rows}.csv`);
  if (!(await stat(file).catch(() => undefined))) {
    console.log(`writing ${rows.toLocaleString("en-GB")} rows to ${file} ...`);
    await writeAccountsCsv(file, rows);
  }
  const bench = await createBenchDatabase("import");
  const rssBefore = process.memoryUsage().rss;
  const memory = rssSampler();
  try {
    const first = await timedImport(bench.database.prisma, file);
    const stored = await bench.database.prisma.breachExposure.count();
    // The same file again, into the index it filled: every row is found already indexed.
    const again = values.reimport ? await timedImport(bench.database.prisma, file) : undefined;
    reportResult("breaches-import", {
      rows,
      ...first,
      stored,
      rowsPerSecond: Math.round(rows / first.seconds),
      ...(again && { reimportAdded: again.added, reimportSeconds: again.seconds, reimportMergingSeconds: again.mergingSeconds }),
      rssBefore: mib(rssBefore),
      peakRss: mib(memory.peak()),
    });
  } finally {
    memory.stop();
    await bench.drop();
    if (!values["keep-file"]) await rm(file, { force: true });
  }
}

/** One run of `import-breaches`, with the time and CPU of its phases. */
async function timedImport(db: Db, file: string) {
  const started = performance.now();
  let readingStarted = 0;
  let cpuAtReading: MachineCpuTimes;
  let processCpuAtReading: NodeJS.CpuUsage | undefined;
  let mergeStarted = 0;
  let cpuAtMerge: MachineCpuTimes;
  let processCpuReading: NodeJS.CpuUsage | undefined;
  // A terminal-like report: the progress bar goes to stderr, and the phases are timed by what it draws.
  const report = {
    isTTY: true,
    write(text: string) {
      if (!readingStarted && text.startsWith("\r[")) {
        readingStarted = performance.now();
        cpuAtReading = machineCpuTimes();
        processCpuAtReading = process.cpuUsage();
      }
      if (!mergeStarted && text.includes("merging")) {
        mergeStarted = performance.now();
        cpuAtMerge = machineCpuTimes();
        processCpuReading = process.cpuUsage(processCpuAtReading);
      }
      return process.stderr.write(text);
    },
  };
  const result = await runImportBreaches(db, { catalogueFile: BUNDLED_CATALOGUE, accountsFile: file }, report);
  const finished = performance.now();
  const cpuAtEnd = machineCpuTimes();
  const seconds = (ms: number) => Number((ms / 1000).toFixed(1));
  return {
    added: result.accounts,
    seconds: seconds(finished - started),
    catalogueSeconds: seconds(readingStarted - started),
    readingSeconds: seconds(mergeStarted - readingStarted),
    mergingSeconds: seconds(finished - mergeStarted),
    // Where the time went: this process parses the file while PostgreSQL stores it; the merge is PostgreSQL's alone.
    readingProcessCpuSeconds: processCpuReading && seconds((processCpuReading.user + processCpuReading.system) / 1000),
    readingMachineBusyPercent: machineCpuShare(cpuAtReading, cpuAtMerge, "busy"),
    mergingMachineBusyPercent: machineCpuShare(cpuAtMerge, cpuAtEnd, "busy"),
    machineCpuStealPercent: machineCpuShare(cpuAtReading, cpuAtEnd, "steal"),
  };
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
