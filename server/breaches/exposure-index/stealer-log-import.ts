import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import path from "node:path";
import { domainToASCII } from "node:url";
import type { Db } from "../../db/client";
import { inBulkTransaction, type BulkTransaction } from "../../db/bulk-write";
import { wakeJobWorkers } from "../../jobs/wake";
import { domainOfEmail, normalizeEmail } from "../../email-address";
import { indexSortsAsciiByByte, parseCsvLine, type RejectedLine } from "./accounts-import";
import { requestImportMatching } from "./match-requests";
import { requestRangePrefixes } from "./range-prefixes";

export const STEALER_LOG_HEADERS = ["email,website_domain", "email,website_domain,captured_at"] as const;
/** Rows committed per transaction: a run that stops resumes after the last committed chunk. */
export const STEALER_LOG_CHUNK_ROWS = 2_000_000;
const STAGING_TABLE = "stealer_log_import";
const STAGING_COLUMNS = ["domain", "email", "website_domain", "captured_at"] as const;
const MERGE_WORK_MEM = "256MB";
const MAX_WEBSITE_DOMAIN_LENGTH = 253;

export interface StealerLogImport {
  /** The stealer_log_imports row of this run (a resumed run keeps the row it resumed). */
  importId: string;
  /** Where this run started in the file: 0, or the bytes an earlier run had committed. */
  resumedAtByte: number;
  /** Data rows read by this run (the header and blank lines not counted). */
  rows: number;
  /** (address, website) rows that were not in the index yet. */
  added: number;
  /** Addresses new to the exposure index in this breach (what incremental matching looks at). */
  addresses: number;
  rejectedCount: number;
  /** The first rejected lines (at most `keepRejected`). */
  rejected: RejectedLine[];
}

export interface StealerLogProgress {
  rows: number;
  added: number;
  rejected: number;
  bytesRead: number;
  totalBytes: number;
}

/** A file or breach that cannot be imported at all (as opposed to single malformed lines). */
export class StealerLogImportError extends Error {}

/**
 * Streams a stealer-log CSV (`email,website_domain[,captured_at]`, one captured credential per
 * line) into the index of one stealer-log catalogue breach. As the accounts import does, rows are
 * checked as they arrive, copied (COPY) into a temporary staging table and merged in key order
 * with a plain INSERT under a lock that keeps other writers out; unlike it, the file is committed
 * a chunk at a time (STEALER_LOG_CHUNK_ROWS): stealer-log files run to billions of rows, so a run
 * that stops (a crash, a deploy) resumes from the last committed line instead of from the start
 * (stealer_log_imports keeps the position). Each chunk is one transaction that writes the
 * (address, website) rows, adds the addresses to the exposure index for the breach and queues
 * their incremental matching, so what a chunk adds reaches monitored customers as an accounts
 * import does. Re-importing a file adds nothing twice.
 */
export async function importStealerLogs(
  db: Db,
  { breachName, file }: { breachName: string; file: string },
  {
    onProgress,
    keepRejected = 100,
    chunkRows = STEALER_LOG_CHUNK_ROWS,
  }: { onProgress?: (progress: StealerLogProgress) => void; keepRejected?: number; chunkRows?: number } = {},
): Promise<StealerLogImport> {
  const breach = await db.breach.findFirst({
    where: { name: { equals: breachName.trim(), mode: "insensitive" } },
    select: { id: true, name: true, isStealerLog: true },
  });
  if (!breach) throw new StealerLogImportError(`unknown breach "${breachName}": import the catalogue first (import-breaches)`);
  if (!breach.isStealerLog) {
    throw new StealerLogImportError(`breach "${breach.name}" is not a stealer-log breach (IsStealerLog is false in the catalogue)`);
  }
  const absolute = path.resolve(file);
  const totalBytes = (await stat(absolute)).size;
  const sortInByteOrder = await indexSortsAsciiByByte(db);
  const run = await resumableRun(db, breach.id, absolute, totalBytes);

  const result: StealerLogImport = {
    importId: run.id,
    resumedAtByte: run.bytesDone,
    rows: 0,
    added: 0,
    addresses: 0,
    rejectedCount: 0,
    rejected: [],
  };
  const reader = new LineReader(absolute, run.bytesDone, run.linesDone);
  const reject = (line: number, reason: string) => {
    result.rejectedCount++;
    if (result.rejected.length < keepRejected) result.rejected.push({ line, reason });
  };
  const header = { seen: run.bytesDone > 0 };
  /** Starts reading the next chunk; `rowsBefore`: the data lines of the chunks before it, for progress. */
  const parseNext = (rowsBefore: number) => {
    const parsing = parseChunk(reader, chunkRows, header, reject, (chunkLines, endByte) =>
      onProgress?.({ rows: rowsBefore + chunkLines, added: result.added, rejected: result.rejectedCount, bytesRead: endByte, totalBytes }),
    );
    parsing.catch(() => undefined); // awaited in turn below; not an unhandled rejection meanwhile
    return parsing;
  };
  // Each chunk is read and checked while PostgreSQL merges the one before (docs/measures.md, "Choices in the code").
  let next = parseNext(0);
  for (;;) {
    const chunk = await next;
    if (!header.seen)
      throw new StealerLogImportError(`the stealer-log file is empty: it must start with the header "${STEALER_LOG_HEADERS[1]}"`);
    const merged = await inBulkTransaction(db, async (tx) => {
      const staged = chunk.copyRows.length > 0;
      if (staged) await copyIntoStaging(tx, chunk.copyRows);
      if (!chunk.last) next = parseNext(result.rows + chunk.lines);
      const merged = staged ? await mergeStagedStealerLogs(tx, { breachId: breach.id, sortInByteOrder }) : { added: 0, addresses: 0 };
      await tx.execute(
        `UPDATE stealer_log_imports SET bytes_done = $2, lines_done = $3, rows = rows + $4, added = added + $5,
           rejected = rejected + $6, completed_at = CASE WHEN $7 THEN now() END, updated_at = now()
         WHERE id = $1`,
        [run.id, chunk.endByte, chunk.endLine, chunk.lines, merged.added, chunk.rejected, chunk.last],
      );
      return merged;
    });
    result.rows += chunk.lines;
    result.added += merged.added;
    result.addresses += merged.addresses;
    if (merged.addresses > 0) await wakeJobWorkers();
    if (chunk.last) break;
  }
  return result;
}

interface ParsedChunk {
  /** COPY text rows, a block of lines per string. */
  copyRows: string[];
  /** Data lines read (rejected ones included). */
  lines: number;
  rejected: number;
  /** Where the chunk ends in the file: the position a resumed run starts from once it is committed. */
  endByte: number;
  endLine: number;
  /** The file ended with this chunk. */
  last: boolean;
}

/** Reads and checks the next chunk of at most `chunkRows` data lines, the header first if it is not seen yet. */
async function parseChunk(
  reader: LineReader,
  chunkRows: number,
  header: { seen: boolean },
  reject: (line: number, reason: string) => void,
  onBlock: (chunkLines: number, endByte: number) => void,
): Promise<ParsedChunk> {
  const chunk: ParsedChunk = { copyRows: [], lines: 0, rejected: 0, endByte: reader.readByte, endLine: reader.readLine, last: false };
  while (chunk.lines < chunkRows) {
    const block = await reader.next(chunkRows - chunk.lines);
    if (!block) {
      chunk.last = true;
      break;
    }
    const rows: string[] = [];
    let number = block.firstLine - 1;
    for (let start = 0; start < block.text.length;) {
      let stop = block.text.indexOf("\n", start);
      if (stop === -1) stop = block.text.length;
      const text = block.text.charCodeAt(stop - 1) === 13 ? block.text.slice(start, stop - 1) : block.text.slice(start, stop);
      start = stop + 1;
      number++;
      if (text.trim() === "") continue;
      if (!header.seen) {
        const normalized = text
          .replace(/^\uFEFF/, "")
          .replace(/\s+/g, "")
          .toLowerCase();
        if (!(STEALER_LOG_HEADERS as readonly string[]).includes(normalized)) {
          throw new StealerLogImportError(
            `line ${number}: the stealer-log file must start with the header "${STEALER_LOG_HEADERS[1]}" (captured_at optional)`,
          );
        }
        header.seen = true;
        continue;
      }
      chunk.lines++;
      const row = stealerLogRow(text);
      if ("rejected" in row) {
        chunk.rejected++;
        reject(number, row.rejected);
        continue;
      }
      rows.push(row.copyRow);
    }
    // One flat string per block: a chunk waits in memory while the one before is merged.
    if (rows.length > 0) chunk.copyRows.push(rows.join(""));
    chunk.endByte = block.endByte;
    chunk.endLine = reader.readLine;
    onBlock(chunk.lines, block.endByte);
  }
  return chunk;
}

/** Copies a parsed chunk into a staging table of the transaction, dropped at commit. */
async function copyIntoStaging(tx: BulkTransaction, copyRows: readonly string[]): Promise<void> {
  await tx.execute(
    `CREATE TEMP TABLE ${STAGING_TABLE} (domain text, email text, website_domain text, captured_at timestamptz) ON COMMIT DROP`,
  );
  const staging = tx.copyInto(STAGING_TABLE, STAGING_COLUMNS);
  for (const rows of copyRows) await staging.write(rows);
  await staging.end();
}

/** The unfinished run of this breach and file (same path and size) to resume, or a new one. */
async function resumableRun(db: Db, breachId: string, file: string, fileSize: number) {
  const unfinished = await db.stealerLogImport.findFirst({
    where: { breachId, file, fileSize: BigInt(fileSize), completedAt: null },
    orderBy: { id: "desc" },
    select: { id: true, bytesDone: true, linesDone: true },
  });
  const run =
    unfinished ??
    (await db.stealerLogImport.create({
      data: { breachId, file, fileSize: BigInt(fileSize) },
      select: { id: true, bytesDone: true, linesDone: true },
    }));
  return { id: run.id.toString(), bytesDone: Number(run.bytesDone), linesDone: Number(run.linesDone) };
}

/** One CSV line as a COPY text row (domain, email, website, captured_at), or why it is rejected. */
function stealerLogRow(text: string): { copyRow: string } | { rejected: string } {
  const fields = parseCsvLine(text);
  if (!fields || fields.length < 2 || fields.length > 3) {
    return { rejected: fields ? `expected 2 or 3 fields, found ${fields.length}` : "unbalanced quotes" };
  }
  const email = normalizeEmail(fields[0]!);
  if (!email) return { rejected: `invalid e-mail address "${fields[0]!.slice(0, 100)}"` };
  const website = websiteDomainOfLine(fields[1]!);
  if (!website) return { rejected: `invalid website domain "${fields[1]!.slice(0, 100)}"` };
  let capturedAt = "\\N";
  const capturedText = fields[2]?.trim() ?? "";
  if (capturedText !== "") {
    const captured = captureDateOfLine(capturedText);
    if (!captured) return { rejected: `invalid captured_at "${capturedText.slice(0, 100)}" (an ISO 8601 date or date-time)` };
    capturedAt = captured;
  }
  // COPY text: a normalized address and website domain hold no tab, backslash or line break.
  return { copyRow: `${domainOfEmail(email)}\t${email}\t${website}\t${capturedAt}\n` };
}

/**
 * A stealer-log file names the same few websites and capture days again and again: each is
 * normalized once, from a cache emptied when it holds `limit` of them.
 */
function cached<T>(normalize: (text: string) => T, limit = 100_000): (text: string) => T {
  const seen = new Map<string, T>();
  return (text) => {
    if (seen.has(text)) return seen.get(text) as T;
    if (seen.size >= limit) seen.clear();
    const value = normalize(text);
    seen.set(text, value);
    return value;
  };
}

const websiteDomainOfLine = cached((text) => normalizeWebsiteDomain(text));
const captureDateOfLine = cached((text) => parseCaptureDate(text));

/**
 * A website domain as stealer logs name it, in the form it is stored: trimmed, lower-case, without
 * a scheme, path, port or trailing dot, internationalized names in ASCII. Looser than a monitored
 * domain: logs also name hosts such as `localhost` or an IP address, which are kept as written.
 */
export function normalizeWebsiteDomain(raw: string): string | undefined {
  let host = raw.trim().toLowerCase();
  host = host.replace(/^[a-z][a-z0-9+.-]*:\/\//, "");
  host = host
    .replace(/[/?#].*$/, "")
    .replace(/:\d+$/, "")
    .replace(/\.$/, "");
  if (host === "" || /[\s\\@]/.test(host)) return undefined;
  const ascii = domainToASCII(host);
  if (ascii === "" || ascii.length > MAX_WEBSITE_DOMAIN_LENGTH) return undefined;
  return ascii;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i;

/** An ISO 8601 date or date-time (UTC when it names no offset) as an ISO timestamp; undefined when invalid. */
function parseCaptureDate(text: string): string | undefined {
  if (!ISO_DATE.test(text)) return undefined;
  const hasOffset = /(?:Z|[+-]\d{2}:?\d{2})$/i.test(text) && text.length > 10;
  const date = new Date(hasOffset ? text.replace(" ", "T") : `${text.replace(" ", "T")}${text.length === 10 ? "T00:00:00" : ""}Z`);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/**
 * Merges the staged rows: the (address, website) rows new to stealer_log_exposures (of a row
 * staged twice, the latest capture date), then the addresses new to the exposure index for the
 * breach, tagged with an exposure_imports id whose matching job is queued in the transaction.
 */
async function mergeStagedStealerLogs(
  tx: BulkTransaction,
  { breachId, sortInByteOrder }: { breachId: string; sortInByteOrder: boolean },
): Promise<{ added: number; addresses: number }> {
  const collate = sortInByteOrder ? ' COLLATE "C"' : "";
  await tx.execute(`SET LOCAL work_mem = '${MERGE_WORK_MEM}'`);
  await tx.execute("SET LOCAL enable_hashagg = off");
  await tx.execute(`ANALYZE ${STAGING_TABLE}`);
  // Blocks other writers until commit, so no row appears between the NOT EXISTS and the insert; reads go on.
  await tx.execute("LOCK TABLE stealer_log_exposures, breach_exposures IN SHARE ROW EXCLUSIVE MODE");
  const added = await tx.execute(
    `
    INSERT INTO stealer_log_exposures (domain, email, breach_id, website_domain, captured_at)
    SELECT DISTINCT ON (1, 2, 4) staged.domain${collate}, staged.email${collate}, $1::uuid, staged.website_domain${collate}, staged.captured_at
    FROM ${STAGING_TABLE} staged
    WHERE NOT EXISTS (
      SELECT FROM stealer_log_exposures indexed
      WHERE indexed.domain = staged.domain AND indexed.email = staged.email AND indexed.breach_id = $1::uuid
        AND indexed.website_domain = staged.website_domain)
    ORDER BY 1, 2, 4, staged.captured_at DESC NULLS LAST`,
    [breachId],
  );
  const importId = (await tx.query<{ id: string }>("INSERT INTO exposure_imports DEFAULT VALUES RETURNING id::text"))[0]!.id;
  const addresses = await tx.execute(
    `
    INSERT INTO breach_exposures (domain, email, breach_id, import_id)
    SELECT DISTINCT staged.domain${collate}, staged.email${collate}, $1::uuid, $2::bigint FROM ${STAGING_TABLE} staged
    WHERE NOT EXISTS (
      SELECT FROM breach_exposures indexed
      WHERE indexed.domain = staged.domain AND indexed.email = staged.email AND indexed.breach_id = $1::uuid)
    ORDER BY 1, 2`,
    [breachId, importId],
  );
  await tx.execute("UPDATE exposure_imports SET added = $2 WHERE id = $1", [importId, addresses]);
  if (addresses > 0) {
    await requestImportMatching(tx, Number(importId));
    await requestRangePrefixes(tx, Number(importId));
  }
  return { added, addresses };
}

interface LineBlock {
  /** Whole lines (the last one without its line break only at the end of the file). */
  text: string;
  /** The number of the block's first line. */
  firstLine: number;
  /** The byte just after the block's last line. */
  endByte: number;
}

/**
 * Reads the file from a byte offset as blocks of whole lines, each with the number of its first
 * line. `readByte` and `readLine` are where the blocks handed out so far end: once the chunk
 * they close is committed, the position a resumed run starts from.
 */
class LineReader {
  readByte: number;
  readLine: number;
  private readonly chunks: AsyncIterator<Buffer>;
  private carry: Buffer = Buffer.alloc(0);
  private pending = "";
  private pendingLines = 0;
  private done = false;

  constructor(file: string, startByte: number, startLine: number) {
    this.readByte = startByte;
    this.readLine = startLine;
    this.chunks = (createReadStream(file, { start: startByte, highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  }

  /** The next block, of at most `maxLines` lines; undefined at the end of the file. */
  async next(maxLines: number): Promise<LineBlock | undefined> {
    if (this.pending === "" && !(await this.fill())) return undefined;
    const firstLine = this.readLine + 1;
    let text = this.pending;
    let lines = this.pendingLines;
    if (lines > maxLines) {
      let cut = -1;
      for (let line = 0; line < maxLines; line++) cut = text.indexOf("\n", cut + 1);
      text = text.slice(0, cut + 1);
      lines = maxLines;
    }
    this.pending = this.pending.slice(text.length);
    this.pendingLines -= lines;
    this.readLine += lines;
    this.readByte += Buffer.byteLength(text, "utf8");
    return { text, firstLine, endByte: this.readByte };
  }

  /** Decodes the next run of whole lines from the file into `pending`; false at the end of the file. */
  private async fill(): Promise<boolean> {
    while (!this.done) {
      const { value, done } = await this.chunks.next();
      let block: Buffer;
      let end: number;
      if (done) {
        this.done = true;
        if (this.carry.length === 0) return false;
        block = this.carry;
        end = block.length;
      } else {
        block = this.carry.length > 0 ? Buffer.concat([this.carry, value]) : value;
        const lastBreak = block.lastIndexOf(10);
        if (lastBreak === -1) {
          this.carry = block;
          continue;
        }
        end = lastBreak + 1;
      }
      this.carry = block.subarray(end);
      this.pending = block.toString("utf8", 0, end);
      let breaks = 0;
      for (let at = this.pending.indexOf("\n"); at !== -1; at = this.pending.indexOf("\n", at + 1)) breaks++;
      this.pendingLines = breaks + (this.pending.endsWith("\n") ? 0 : 1);
      return true;
    }
    return false;
  }
}
