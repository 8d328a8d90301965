import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import type { Db } from "../db/client";
import { breachIdsByName } from "./catalogue";
import type { Queryable } from "../jobs/queue";
import { normalizeEmail } from "./exposures";

export const ACCOUNTS_HEADER = "email,breach_name";
/**
 * Rows per staging INSERT, and how many may be queued at once (parsing goes on meanwhile).
 * Prisma's debug module keeps the arguments of the last 100 queries even with logging off, so
 * the batch size bounds the import's memory: 10,000 rows (one string of about 0.7 MB) keep that
 * history under 100 MiB.
 */
const BATCH_ROWS = 10_000;
const IN_FLIGHT_BATCHES = 2;
/** A whole import is one transaction; a 10-million-row file takes minutes. */
const IMPORT_TIMEOUT_MS = 6 * 3_600_000;
const MERGE_WORK_MEM = "256MB";

export interface RejectedLine {
  line: number;
  reason: string;
}

export interface AccountsImport {
  /** Data rows read (the header and blank lines not counted). */
  rows: number;
  /** Exposures that were not in the index yet. */
  added: number;
  rejectedCount: number;
  /** The first rejected lines (at most `keepRejected`). */
  rejected: RejectedLine[];
}

export interface AccountsProgress {
  /** Reading the file into the staging table, then merging it into the index. */
  phase: "reading" | "merging";
  rows: number;
  added: number;
  rejected: number;
  bytesRead: number;
  totalBytes: number;
}

/** A file that cannot be imported at all (as opposed to single malformed lines). */
export class AccountsFileError extends Error {}

/**
 * Streams an accounts CSV (header `email,breach_name`, one exposed account per line) into the
 * exposure index. Addresses are normalized; breach names are matched to the catalogue without
 * regard to case. A malformed line is rejected with its line number and the rest is imported.
 *
 * Batches go into a temporary staging table (no index, no WAL), which is then merged into the
 * index in one INSERT ... SELECT ... ORDER BY key ON CONFLICT DO NOTHING: index pages are filled in
 * key order, duplicates in the file and rows already indexed are skipped, so a re-import adds nothing
 * twice. The whole import is one transaction: it lands completely or not at all.
 */
export async function importAccounts(
  db: Db,
  file: string,
  { onProgress, keepRejected = 100 }: { onProgress?: (progress: AccountsProgress) => void; keepRejected?: number } = {},
): Promise<AccountsImport> {
  const totalBytes = (await stat(file)).size;
  const breachIds = await breachIdsByName(db);
  return db.$transaction(
    async (tx) => {
      await tx.$executeRawUnsafe("CREATE TEMP TABLE exposure_import (domain text, email text, breach_id uuid) ON COMMIT DROP");
      const result = await stageAccounts(tx, file, breachIds, totalBytes, { onProgress, keepRejected });
      onProgress?.({ phase: "merging", rows: result.rows, added: 0, rejected: result.rejectedCount, bytesRead: totalBytes, totalBytes });
      // A larger sort memory for this transaction only: the merge sorts the whole file.
      await tx.$executeRawUnsafe(`SET LOCAL work_mem = '${MERGE_WORK_MEM}'`);
      result.added = await tx.$executeRawUnsafe(`
        INSERT INTO breach_exposures (domain, email, breach_id)
        SELECT domain, email, breach_id FROM exposure_import ORDER BY domain, email, breach_id
        ON CONFLICT DO NOTHING`);
      onProgress?.({ phase: "merging", rows: result.rows, added: result.added, rejected: result.rejectedCount, bytesRead: totalBytes, totalBytes });
      return result;
    },
    { timeout: IMPORT_TIMEOUT_MS, maxWait: 60_000 },
  );
}

async function stageAccounts(
  tx: Queryable,
  file: string,
  breachIds: Map<string, string>,
  totalBytes: number,
  { onProgress, keepRejected }: { onProgress?: (progress: AccountsProgress) => void; keepRejected: number },
): Promise<AccountsImport> {
  const stream = createReadStream(file, { encoding: "utf8", highWaterMark: 1 << 20 });
  const result: AccountsImport = { rows: 0, added: 0, rejectedCount: 0, rejected: [] };
  const reject = (line: number, reason: string) => {
    result.rejectedCount++;
    if (result.rejected.length < keepRejected) result.rejected.push({ line, reason });
  };
  const inFlight = new Set<Promise<unknown>>();
  // A batch travels as one text parameter, "email<TAB>breach id" per line (a valid address has
  // neither character), split by PostgreSQL: far cheaper for the driver than three arrays.
  const flush = async (batch: string[]) => {
    const insert: Promise<unknown> = tx.$executeRaw`
      INSERT INTO exposure_import (domain, email, breach_id)
      SELECT substr(f[1], strpos(f[1], '@') + 1), f[1], f[2]::uuid
      FROM unnest(string_to_array(${batch.join("\n")}, E'\n')) AS line, string_to_array(line, E'\t') AS f`.then(() =>
      inFlight.delete(insert),
    );
    inFlight.add(insert);
    if (inFlight.size >= IN_FLIGHT_BATCHES) await Promise.race(inFlight);
    onProgress?.({ phase: "reading", rows: result.rows, added: 0, rejected: result.rejectedCount, bytesRead: stream.bytesRead, totalBytes });
  };

  let lineNumber = 0;
  let headerSeen = false;
  let batch: string[] = [];
  for await (const text of linesOf(stream)) {
    lineNumber++;
    if (text.trim() === "") continue;
    if (!headerSeen) {
      if (text.replace(/^\uFEFF/, "").replace(/\s+/g, "").toLowerCase() !== ACCOUNTS_HEADER) {
        throw new AccountsFileError(`line ${lineNumber}: the accounts file must start with the header "${ACCOUNTS_HEADER}"`);
      }
      headerSeen = true;
      continue;
    }
    result.rows++;
    const fields = parseCsvLine(text);
    if (!fields || fields.length !== 2) {
      reject(lineNumber, fields ? `expected 2 fields, found ${fields.length}` : "unbalanced quotes");
      continue;
    }
    const email = normalizeEmail(fields[0]!);
    if (!email) {
      reject(lineNumber, `invalid e-mail address "${fields[0]!.slice(0, 100)}"`);
      continue;
    }
    const breachId = breachIds.get(fields[1]!.trim().toLowerCase());
    if (!breachId) {
      reject(lineNumber, `unknown breach "${fields[1]!.slice(0, 100)}"`);
      continue;
    }
    batch.push(`${email}\t${breachId}`);
    if (batch.length >= BATCH_ROWS) {
      await flush(batch);
      batch = [];
    }
  }
  if (!headerSeen) throw new AccountsFileError(`the accounts file is empty: it must start with the header "${ACCOUNTS_HEADER}"`);
  if (batch.length > 0) await flush(batch);
  await Promise.all(inFlight);
  onProgress?.({ phase: "reading", rows: result.rows, added: 0, rejected: result.rejectedCount, bytesRead: totalBytes, totalBytes });
  return result;
}

/**
 * The lines of a text stream (LF or CRLF). Pulls one chunk at a time, so a file is never read
 * ahead of the import (readline's iterator buffers without bound when the consumer is slower).
 */
async function* linesOf(stream: AsyncIterable<string>): AsyncGenerator<string> {
  let rest = "";
  for await (const chunk of stream) {
    const text = rest + chunk;
    let start = 0;
    for (let end = text.indexOf("\n"); end !== -1; end = text.indexOf("\n", start)) {
      yield text.charCodeAt(end - 1) === 13 ? text.slice(start, end - 1) : text.slice(start, end);
      start = end + 1;
    }
    rest = text.slice(start);
  }
  if (rest !== "") yield rest.endsWith("\r") ? rest.slice(0, -1) : rest;
}

/** The fields of one CSV line (RFC 4180 quoting, no line breaks inside fields); undefined when the quotes do not balance. */
export function parseCsvLine(line: string): string[] | undefined {
  if (!line.includes('"')) return line.split(",");
  const fields: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const char = line[i]!;
    if (quoted) {
      if (char !== '"') field += char;
      else if (line[i + 1] === '"') {
        field += '"';
        i++;
      } else quoted = false;
    } else if (char === '"') quoted = true;
    else if (char === ",") {
      fields.push(field);
      field = "";
    } else field += char;
  }
  if (quoted) return undefined;
  fields.push(field);
  return fields;
}
