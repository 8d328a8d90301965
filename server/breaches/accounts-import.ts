import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { createInterface } from "node:readline";
import type { Db } from "../db/client";
import { breachIdsByName } from "./catalogue";
import { insertExposures, normalizeEmail, type Exposure } from "./exposures";

export const ACCOUNTS_HEADER = "email,breach_name";
/** Rows per INSERT statement, and how many statements may be in flight at once. */
const BATCH_ROWS = 10_000;
const IN_FLIGHT_BATCHES = 2;

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
 * exposure index in batches. Addresses are normalized; breach names are matched to the
 * catalogue without regard to case. A malformed line is rejected with its line number and the
 * rest is imported; rows already in the index are skipped, so a re-import adds nothing twice.
 */
export async function importAccounts(
  db: Db,
  file: string,
  { onProgress, keepRejected = 100 }: { onProgress?: (progress: AccountsProgress) => void; keepRejected?: number } = {},
): Promise<AccountsImport> {
  const totalBytes = (await stat(file)).size;
  const breachIds = await breachIdsByName(db);
  const stream = createReadStream(file, { encoding: "utf8", highWaterMark: 1 << 20 });
  const lines = createInterface({ input: stream, crlfDelay: Infinity });

  const result: AccountsImport = { rows: 0, added: 0, rejectedCount: 0, rejected: [] };
  const reject = (line: number, reason: string) => {
    result.rejectedCount++;
    if (result.rejected.length < keepRejected) result.rejected.push({ line, reason });
  };
  const inFlight = new Set<Promise<void>>();
  const flush = async (batch: Exposure[]) => {
    const insert = insertExposures(db, batch).then((added) => {
      result.added += added;
      inFlight.delete(insert);
    });
    inFlight.add(insert);
    if (inFlight.size >= IN_FLIGHT_BATCHES) await Promise.race(inFlight);
    onProgress?.({ rows: result.rows, added: result.added, rejected: result.rejectedCount, bytesRead: stream.bytesRead, totalBytes });
  };

  let lineNumber = 0;
  let headerSeen = false;
  let batch: Exposure[] = [];
  for await (const text of lines) {
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
    batch.push({ email, breachId });
    if (batch.length >= BATCH_ROWS) {
      await flush(batch);
      batch = [];
    }
  }
  if (!headerSeen) throw new AccountsFileError(`the accounts file is empty: it must start with the header "${ACCOUNTS_HEADER}"`);
  if (batch.length > 0) await flush(batch);
  await Promise.all(inFlight);
  onProgress?.({ rows: result.rows, added: result.added, rejected: result.rejectedCount, bytesRead: totalBytes, totalBytes });
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
