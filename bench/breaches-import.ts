/**
 * Exposure import throughput (issue 4 measure: 10,000,000 exposures at >= 100,000 rows/s into
 * PostgreSQL). Writes a CSV of ROWS exposures (random order, seeded) over the bundled catalogue,
 * then runs the real `import-breaches` path into a fresh database and reports rows/s.
 *   npx tsx bench/breaches-import.ts [--rows 10000000] [--keep-file]
 */
import { createWriteStream } from "node:fs";
import { readFile, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { runImportBreaches } from "../server/cli/import-breaches";
import { BUNDLED_CATALOGUE } from "../server/breaches/demo";
import { createBenchDatabase, machineCpuShare, machineCpuTimes, reportResult, type MachineCpuTimes, mib, rssSampler } from "./support/bench-kit";
import { seededRandom } from "../server/breaches/demo";

const { values } = parseArgs({ options: { rows: { type: "string", default: "10000000" }, "keep-file": { type: "boolean", default: false } } });
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
    const started = performance.now();
    let readingStarted = 0;
    let cpuAtReading: MachineCpuTimes;
    let processCpuAtReading: NodeJS.CpuUsage | undefined;
    let mergeStarted = 0;
    let cpuAtMerge: MachineCpuTimes;
    let processCpuReading: NodeJS.CpuUsage | undefined;
    // A terminal-like report: the progress bar goes to stderr, and the merge phase is timed.
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
    const result = await runImportBreaches(bench.database.prisma, { catalogueFile: BUNDLED_CATALOGUE, accountsFile: file }, report);
    const finished = performance.now();
    const cpuAtEnd = machineCpuTimes();
    const seconds = (finished - started) / 1000;
    const stored = await bench.database.prisma.breachExposure.count();
    reportResult("breaches-import", {
      rows,
      added: result.accounts,
      stored,
      seconds: Number(seconds.toFixed(1)),
      catalogueSeconds: Number(((readingStarted - started) / 1000).toFixed(1)),
      readingSeconds: Number(((mergeStarted - readingStarted) / 1000).toFixed(1)),
      mergingSeconds: Number(((finished - mergeStarted) / 1000).toFixed(1)),
      // Where the time went: this process parses the file while PostgreSQL stores it; the merge is PostgreSQL's alone.
      readingProcessCpuSeconds: processCpuReading && Number(((processCpuReading.user + processCpuReading.system) / 1e6).toFixed(1)),
      readingMachineBusyPercent: machineCpuShare(cpuAtReading, cpuAtMerge, "busy"),
      mergingMachineBusyPercent: machineCpuShare(cpuAtMerge, cpuAtEnd, "busy"),
      machineCpuStealPercent: machineCpuShare(cpuAtReading, cpuAtEnd, "steal"),
      rowsPerSecond: Math.round(rows / seconds),
      rssBefore: mib(rssBefore),
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
