import type { Db } from "../db/client";
import { importStealerLogs, type StealerLogProgress } from "../breaches/exposure-index/stealer-log-import";
import { fileProgressBar, formatCount as format, listRejectedLines, MAX_LISTED_REJECTIONS, type ReportStream } from "./import-report";

/**
 * `admin import-stealer-logs --breach NAME --file FILE.csv`: the file into the index of one
 * stealer-log breach, a chunk per transaction; run again after a stop, it resumes. On a terminal a
 * progress bar follows the file; otherwise one summary line is written at the end.
 */
export async function runImportStealerLogs(
  db: Db,
  { breachName, file }: { breachName: string; file: string },
  report: ReportStream,
  { chunkRows }: { chunkRows?: number } = {},
): Promise<{ rows: number; added: number; addresses: number; rejected: number; resumedAtByte: number }> {
  const started = Date.now();
  const onProgress: ((progress: StealerLogProgress) => void) | undefined = report.isTTY ? fileProgressBar(report, started) : undefined;
  const result = await importStealerLogs(db, { breachName, file }, { onProgress, keepRejected: MAX_LISTED_REJECTIONS, chunkRows });
  if (onProgress) report.write("\n");
  if (result.resumedAtByte > 0) report.write(`resumed an earlier run at byte ${format(result.resumedAtByte)}\n`);
  listRejectedLines(report, "stealer-log", result.rejected, result.rejectedCount);
  const seconds = (Date.now() - started) / 1000;
  const rate = result.rows > 0 ? `, ${format(Math.round(result.rows / seconds))} rows/s` : "";
  report.write(
    `import-stealer-logs: ${format(result.rows)} rows read, ${format(result.added)} added ` +
      `(${format(result.addresses)} addresses new to the breach), ${format(result.rejectedCount)} rejected; ${seconds.toFixed(1)} s${rate}\n`,
  );
  return {
    rows: result.rows,
    added: result.added,
    addresses: result.addresses,
    rejected: result.rejectedCount,
    resumedAtByte: result.resumedAtByte,
  };
}
