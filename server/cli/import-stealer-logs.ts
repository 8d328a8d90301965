import type { Db } from "../db/client";
import { importStealerLogs, type StealerLogProgress } from "../breaches/exposure-index/stealer-log-import";
import type { ReportStream } from "./import-breaches";

const BAR_WIDTH = 30;
const BAR_REDRAW_MS = 200;
const MAX_LISTED_REJECTIONS = 20;

/**
 * `admin import-stealer-logs --breach NAME --file FILE.csv`: the file into the index of one
 * stealer-log breach, a chunk per transaction; run again after a stop, it resumes. On a terminal a
 * progress bar follows the file; otherwise one summary line is written at the end.
 */
export async function runImportStealerLogs(
  db: Db,
  { breachName, file }: { breachName: string; file: string },
  report: ReportStream,
): Promise<{ rows: number; added: number; addresses: number; rejected: number; resumedAtByte: number }> {
  const started = Date.now();
  let drawnAt = 0;
  const onProgress = report.isTTY
    ? (progress: StealerLogProgress) => {
        const share = progress.totalBytes > 0 ? Math.min(1, progress.bytesRead / progress.totalBytes) : 1;
        if (share < 1 && Date.now() - drawnAt < BAR_REDRAW_MS) return;
        drawnAt = Date.now();
        const filled = Math.round(share * BAR_WIDTH);
        const seconds = Math.max(0.001, (Date.now() - started) / 1000);
        report.write(
          `\r[${"#".repeat(filled)}${"-".repeat(BAR_WIDTH - filled)}] ${(share * 100).toFixed(0).padStart(3)}% ` +
            `${format(progress.rows)} rows read, ${format(progress.rejected)} rejected, ${format(Math.round(progress.rows / seconds))} rows/s`,
        );
      }
    : undefined;
  const result = await importStealerLogs(db, { breachName, file }, { onProgress, keepRejected: MAX_LISTED_REJECTIONS });
  if (onProgress) report.write("\n");
  if (result.resumedAtByte > 0) report.write(`resumed an earlier run at byte ${format(result.resumedAtByte)}\n`);
  for (const rejected of result.rejected) report.write(`stealer-log line ${rejected.line} rejected: ${rejected.reason}\n`);
  if (result.rejectedCount > MAX_LISTED_REJECTIONS) {
    report.write(`... and ${format(result.rejectedCount - MAX_LISTED_REJECTIONS)} more rejected stealer-log lines\n`);
  }
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

function format(value: number): string {
  return value.toLocaleString("en-GB");
}
