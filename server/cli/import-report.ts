/** Where an import reports to people: stderr (stdout carries only the JSON result). */
export interface ReportStream {
  isTTY?: boolean;
  write(text: string): unknown;
}

export interface FileProgress {
  bytesRead: number;
  totalBytes: number;
  rows: number;
  rejected: number;
}

const BAR_WIDTH = 30;
const BAR_REDRAW_MS = 200;
export const MAX_LISTED_REJECTIONS = 20;

export function formatCount(value: number): string {
  return value.toLocaleString("en-GB");
}

/** A progress bar over the file being read, redrawn at most every 200 ms (and once at the end). */
export function fileProgressBar(report: ReportStream, started: number): (progress: FileProgress) => void {
  let drawnAt = 0;
  return (progress) => {
    const share = progress.totalBytes > 0 ? Math.min(1, progress.bytesRead / progress.totalBytes) : 1;
    if (share < 1 && Date.now() - drawnAt < BAR_REDRAW_MS) return;
    drawnAt = Date.now();
    const filled = Math.round(share * BAR_WIDTH);
    const seconds = Math.max(0.001, (Date.now() - started) / 1000);
    report.write(
      `\r[${"#".repeat(filled)}${"-".repeat(BAR_WIDTH - filled)}] ${(share * 100).toFixed(0).padStart(3)}% ` +
        `${formatCount(progress.rows)} rows read, ${formatCount(progress.rejected)} rejected, ` +
        `${formatCount(Math.round(progress.rows / seconds))} rows/s`,
    );
  };
}

/** The kept rejected lines with their positions, then how many more there were. */
export function listRejectedLines(
  report: ReportStream,
  what: string,
  rejected: Array<{ line: number; reason: string }>,
  total: number,
): void {
  for (const entry of rejected) report.write(`${what} line ${entry.line} rejected: ${entry.reason}\n`);
  listRemainder(report, total, `${what} lines`);
}

export function listRemainder(report: ReportStream, total: number, what: string): void {
  if (total > MAX_LISTED_REJECTIONS) report.write(`... and ${formatCount(total - MAX_LISTED_REJECTIONS)} more rejected ${what}\n`);
}
