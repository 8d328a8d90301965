import { readFile } from "node:fs/promises";
import type { Db } from "../db/client";
import { importAccounts, type AccountsProgress } from "../breaches/exposure-index/accounts-import";
import { importCatalogue } from "../breaches/catalogue/catalogue";
import {
  fileProgressBar,
  formatCount as format,
  listRejectedLines,
  listRemainder,
  MAX_LISTED_REJECTIONS,
  type ReportStream,
} from "./import-report";

/**
 * `admin import-breaches --catalogue F.json [--accounts F.csv]`: the catalogue, then the
 * accounts. On a terminal a progress bar follows the accounts file; otherwise one summary line
 * is written at the end. Rejected records and lines are listed with their positions.
 */
export async function runImportBreaches(
  db: Db,
  { catalogueFile, accountsFile }: { catalogueFile: string; accountsFile?: string },
  report: ReportStream,
): Promise<{ breaches: number; accounts: number }> {
  const started = Date.now();
  let catalogue: unknown;
  try {
    catalogue = JSON.parse(await readFile(catalogueFile, "utf8"));
  } catch (error) {
    throw new Error(`cannot read the catalogue ${catalogueFile}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const breaches = await importCatalogue(db, catalogue);
  for (const rejected of breaches.rejected.slice(0, MAX_LISTED_REJECTIONS)) {
    report.write(`catalogue record ${rejected.record}${rejected.name ? ` (${rejected.name})` : ""} rejected: ${rejected.reason}\n`);
  }
  listRemainder(report, breaches.rejected.length, "catalogue records");

  let accounts = { rows: 0, added: 0, rejectedCount: 0, rejected: [] as Array<{ line: number; reason: string }> };
  if (accountsFile) {
    const bar = report.isTTY ? progressBar(report, started) : undefined;
    try {
      accounts = await importAccounts(db, accountsFile, { onProgress: bar?.update, keepRejected: MAX_LISTED_REJECTIONS });
    } finally {
      bar?.stop();
    }
    if (bar) report.write("\n");
    listRejectedLines(report, "accounts", accounts.rejected, accounts.rejectedCount);
  }

  const seconds = (Date.now() - started) / 1000;
  const rate = accounts.rows > 0 ? `, ${format(Math.round(accounts.rows / seconds))} rows/s` : "";
  report.write(
    `import-breaches: ${format(breaches.imported)} breaches (${breaches.rejected.length} rejected); ` +
      `${format(accounts.rows)} account rows read, ${format(accounts.added)} added, ${format(accounts.rejectedCount)} rejected; ` +
      `${seconds.toFixed(1)} s${rate}\n`,
  );
  return { breaches: breaches.imported, accounts: accounts.added };
}

/** The reading phase as a bar; the merge, which reports nothing until it ends, with its seconds so far. */
function progressBar(report: ReportStream, started: number) {
  const drawBar = fileProgressBar(report, started);
  let mergeTicker: NodeJS.Timeout | undefined;
  const stop = () => clearInterval(mergeTicker);
  const update = (progress: AccountsProgress) => {
    if (progress.phase === "merging") {
      if (mergeTicker) return stop();
      const merging = `merging ${format(progress.rows)} rows into the exposure index ...`;
      const mergeStarted = Date.now();
      report.write(`\n${merging}`);
      mergeTicker = setInterval(() => report.write(`\r${merging} ${Math.round((Date.now() - mergeStarted) / 1000)} s`), 1000);
      mergeTicker.unref();
      return;
    }
    drawBar(progress);
  };
  return { update, stop };
}
