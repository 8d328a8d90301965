import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import type { Db } from "../../db/client";
import { inBulkTransaction, type BulkTransaction } from "../../db/bulk-write";
import { wakeJobWorkers } from "../../jobs/wake";
import { breachIdsByName } from "../catalogue/catalogue";
import { domainOfEmail, normalizeEmail } from "../../email-address";
import { requestImportMatching } from "./match-requests";
import { requestRangePrefixes } from "./range-prefixes";

export const ACCOUNTS_HEADER = "email,breach_name";
/** Rows sent to the staging table at a time. */
const BATCH_ROWS = 10_000;
const STAGING_TABLE = "exposure_import";
const STAGING_COLUMNS = ["domain", "email", "breach_id"] as const;
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
 * Rows are copied (COPY) into a temporary staging table (no index, no WAL), which is then merged
 * into the index in one statement: sorted by the key, so index pages are filled in key order, with
 * duplicates in the file and rows already indexed left out, so a re-import adds nothing twice.
 * The merge is a plain INSERT, not INSERT ... ON CONFLICT, whose per-row conflict check costs
 * about as much again as the insert itself (docs/breaches.md): while it runs, other writers of the
 * index wait (readers do not), so no row can appear between the check and the insert. The whole
 * import is one transaction: it lands completely or not at all.
 *
 * The added rows carry the import's id (exposure_imports), and the job that matches them against
 * active customers' monitored assets is queued in the same transaction (docs/breaches.md,
 * incremental matching): an import that commits always gets matched, one that rolls back never.
 * So is the job that gives them breach/range's hash prefix, which runs once the import committed
 * (range-prefixes.ts), so computing it costs the import nothing.
 */
export async function importAccounts(
  db: Db,
  file: string,
  { onProgress, keepRejected = 100 }: { onProgress?: (progress: AccountsProgress) => void; keepRejected?: number } = {},
): Promise<AccountsImport> {
  const totalBytes = (await stat(file)).size;
  const breachIds = await breachIdsByName(db);
  const sortInByteOrder = await indexSortsAsciiByByte(db);
  const imported = await inBulkTransaction(db, async (tx) => {
    await tx.execute(`CREATE TEMP TABLE ${STAGING_TABLE} (domain text, email text, breach_id uuid) ON COMMIT DROP`);
    const result = await stageAccounts(tx, file, breachIds, totalBytes, { onProgress, keepRejected });
    onProgress?.({ phase: "merging", rows: result.rows, added: 0, rejected: result.rejectedCount, bytesRead: totalBytes, totalBytes });
    const importId = (await tx.query<{ id: string }>("INSERT INTO exposure_imports DEFAULT VALUES RETURNING id::text"))[0]!.id;
    result.added = await mergeStagedExposures(tx, { sortInByteOrder, importId });
    await tx.execute("UPDATE exposure_imports SET added = $2 WHERE id = $1", [importId, result.added]);
    if (result.added > 0) {
      await requestImportMatching(tx, Number(importId));
      await requestRangePrefixes(tx, Number(importId));
    }
    onProgress?.({
      phase: "merging",
      rows: result.rows,
      added: result.added,
      rejected: result.rejectedCount,
      bytesRead: totalBytes,
      totalBytes,
    });
    return result;
  });
  if (imported.added > 0) await wakeJobWorkers();
  return imported;
}

/**
 * Whether the index's text columns order ASCII text byte by byte (collation C, POSIX or C.UTF-8).
 * Normalized addresses are ASCII, so the staged rows can then be sorted with the "C" collation and
 * reach the index in its own order: a "C" sort compares bytes, where any other collation calls the
 * C library for every comparison (measured: docs/measures.md, "Choices in the code").
 */
export async function indexSortsAsciiByByte(db: Db): Promise<boolean> {
  const collations = await db.$queryRaw<Array<{ provider: string; locale: string | null }>>`
    SELECT
      CASE WHEN c.collname = 'default' THEN d.datlocprovider ELSE c.collprovider END::text AS provider,
      CASE WHEN c.collname = 'default' THEN d.datcollate ELSE c.collcollate END AS locale
    FROM pg_attribute a
    JOIN pg_collation c ON c.oid = a.attcollation
    JOIN pg_database d ON d.datname = current_database()
    WHERE a.attrelid = 'breach_exposures'::regclass AND a.attname IN ('domain', 'email')`;
  return (
    collations.length === 2 &&
    collations.every(({ provider, locale }) => provider === "b" || (provider === "c" && BYTE_ORDER_LOCALES.has(locale ?? "")))
  );
}

/** libc locales whose collation orders ASCII text by byte value (the builtin provider always does). */
const BYTE_ORDER_LOCALES = new Set(["C", "POSIX", "C.UTF-8", "C.utf8"]);

async function mergeStagedExposures(
  tx: BulkTransaction,
  { sortInByteOrder, importId }: { sortInByteOrder: boolean; importId: string },
): Promise<number> {
  const collate = sortInByteOrder ? ' COLLATE "C"' : "";
  // For this transaction only: sort memory for the whole file, and deduplication by that sort
  // (a hash table of every row would be built first and sorted again).
  await tx.execute(`SET LOCAL work_mem = '${MERGE_WORK_MEM}'`);
  await tx.execute("SET LOCAL enable_hashagg = off");
  // Row counts for the planner: against a large index a small file is probed row by row, a large
  // one merged with the index in key order.
  await tx.execute(`ANALYZE ${STAGING_TABLE}`);
  // Blocks inserts, updates and deletes until commit; reads go on.
  await tx.execute("LOCK TABLE breach_exposures IN SHARE ROW EXCLUSIVE MODE");
  return tx.execute(
    `
    INSERT INTO breach_exposures (domain, email, breach_id, import_id)
    SELECT DISTINCT staged.domain${collate}, staged.email${collate}, staged.breach_id, $1::bigint FROM ${STAGING_TABLE} staged
    WHERE NOT EXISTS (
      SELECT FROM breach_exposures indexed
      WHERE indexed.domain = staged.domain AND indexed.email = staged.email AND indexed.breach_id = staged.breach_id)
    ORDER BY 1, 2, 3`,
    [importId],
  );
}

async function stageAccounts(
  tx: BulkTransaction,
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
  const staging = tx.copyInto(STAGING_TABLE, STAGING_COLUMNS);
  const flush = async (rows: string) => {
    await staging.write(rows);
    onProgress?.({
      phase: "reading",
      rows: result.rows,
      added: 0,
      rejected: result.rejectedCount,
      bytesRead: stream.bytesRead,
      totalBytes,
    });
  };

  let lineNumber = 0;
  let headerSeen = false;
  // COPY text rows: a normalized address has no tab, backslash or line break, a breach id is a uuid.
  let batch = "";
  let batchRows = 0;
  const stageLine = (text: string) => {
    lineNumber++;
    if (text.trim() === "") return;
    if (!headerSeen) {
      if (
        text
          .replace(/^\uFEFF/, "")
          .replace(/\s+/g, "")
          .toLowerCase() !== ACCOUNTS_HEADER
      ) {
        throw new AccountsFileError(`line ${lineNumber}: the accounts file must start with the header "${ACCOUNTS_HEADER}"`);
      }
      headerSeen = true;
      return;
    }
    result.rows++;
    const fields = parseCsvLine(text);
    if (!fields || fields.length !== 2) {
      reject(lineNumber, fields ? `expected 2 fields, found ${fields.length}` : "unbalanced quotes");
      return;
    }
    const email = normalizeEmail(fields[0]!);
    if (!email) {
      reject(lineNumber, `invalid e-mail address "${fields[0]!.slice(0, 100)}"`);
      return;
    }
    const breachId = breachIds.get(fields[1]!.trim().toLowerCase());
    if (!breachId) {
      reject(lineNumber, `unknown breach "${fields[1]!.slice(0, 100)}"`);
      return;
    }
    batch += `${domainOfEmail(email)}\t${email}\t${breachId}\n`;
    batchRows++;
  };

  // Lines are split and checked synchronously, a chunk at a time; only a full batch waits.
  let rest = "";
  for await (const chunk of stream as AsyncIterable<string>) {
    const text = rest + chunk;
    let start = 0;
    for (let end = text.indexOf("\n"); end !== -1; end = text.indexOf("\n", start)) {
      stageLine(text.charCodeAt(end - 1) === 13 ? text.slice(start, end - 1) : text.slice(start, end));
      start = end + 1;
      if (batchRows >= BATCH_ROWS) {
        await flush(batch);
        batch = "";
        batchRows = 0;
      }
    }
    rest = text.slice(start);
  }
  if (rest !== "") stageLine(rest.endsWith("\r") ? rest.slice(0, -1) : rest);
  if (!headerSeen) throw new AccountsFileError(`the accounts file is empty: it must start with the header "${ACCOUNTS_HEADER}"`);
  if (batchRows > 0) await flush(batch);
  await staging.end();
  onProgress?.({ phase: "reading", rows: result.rows, added: 0, rejected: result.rejectedCount, bytesRead: totalBytes, totalBytes });
  return result;
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
