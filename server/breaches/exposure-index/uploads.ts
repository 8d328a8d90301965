import { createHash, randomUUID } from "node:crypto";
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { mkdir, readFile, rename, rm } from "node:fs/promises";
import path from "node:path";
import { finished } from "node:stream/promises";
import { config } from "../../config";
import type { Db } from "../../db/client";
import { AppError, badRequest } from "../../errors";
import { BREACH_DATA_UPLOAD_LIMIT } from "../../http/edge-guard";
import { importCatalogue } from "../catalogue/catalogue";
import { AccountsFileError, importAccounts } from "./accounts-import";
import { importStealerLogs, StealerLogImportError } from "./stealer-log-import";

/** What an upload holds: a catalogue (HIBP v3 JSON array), accounts (`email,breach_name`) or stealer-log captures. */
export const BREACH_DATA_KINDS = ["catalogue", "accounts", "stealer-logs"] as const;
export type BreachDataKind = (typeof BREACH_DATA_KINDS)[number];

/**
 * The largest upload of each kind. A catalogue is parsed in memory (Have I Been Pwned's whole
 * catalogue is about 1 MB); accounts and stealer-log files are streamed to disk and from there
 * into the index by COPY, so their limit is about disk space and the 30 s the server gives a
 * request to arrive: larger files go through the admin CLI on the server's machine.
 */
export const BREACH_UPLOAD_LIMITS: Record<BreachDataKind, number> = {
  catalogue: 64 * 1024 * 1024,
  accounts: BREACH_DATA_UPLOAD_LIMIT,
  "stealer-logs": BREACH_DATA_UPLOAD_LIMIT,
};

/** How many rejected records or lines a report lists (the count covers all of them). */
export const MAX_REPORTED_REJECTIONS = 20;

export function isBreachDataKind(value: string): value is BreachDataKind {
  return (BREACH_DATA_KINDS as readonly string[]).includes(value);
}

export function uploadTooLarge(kind: BreachDataKind): AppError {
  const limit = BREACH_UPLOAD_LIMITS[kind];
  return new AppError(
    "PAYLOAD_TOO_LARGE",
    `The ${kind} file is larger than the upload limit of ${formatBytes(limit)}: import it with the admin CLI on the server's machine`,
  );
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 * 1024 ? `${bytes / (1024 * 1024 * 1024)} GiB` : `${bytes / (1024 * 1024)} MiB`;
}

export interface ReceivedUpload {
  file: string;
  bytes: number;
  sha256: string;
  discard(): Promise<void>;
}

/**
 * Writes an upload's body to a file of its own under DATA_DIR/uploads as it arrives (never held in
 * memory), refusing it with 413 as soon as it passes the kind's limit (the part written is removed).
 */
export async function receiveUpload(body: AsyncIterable<Uint8Array> | null, kind: BreachDataKind): Promise<ReceivedUpload> {
  if (!body) throw badRequest(`The ${kind} file is empty: send it as the request body`);
  const dir = path.join(config.dataDir(), "uploads");
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, `${kind}-${randomUUID()}.part`);
  const out = createWriteStream(file, { mode: 0o600 });
  let writeError: unknown;
  out.on("error", (error) => (writeError ??= error));
  const hash = createHash("sha256");
  let bytes = 0;
  const limit = BREACH_UPLOAD_LIMITS[kind];
  try {
    for await (const chunk of body) {
      bytes += chunk.byteLength;
      if (bytes > limit) throw uploadTooLarge(kind);
      hash.update(chunk);
      if (!out.write(chunk)) await once(out, "drain");
      if (writeError) throw writeError;
    }
    out.end();
    await finished(out);
  } catch (error) {
    out.destroy();
    await rm(file, { force: true });
    throw error;
  }
  if (bytes === 0) {
    await rm(file, { force: true });
    throw badRequest(`The ${kind} file is empty`);
  }
  const upload: ReceivedUpload = { file, bytes, sha256: hash.digest("hex"), discard: () => rm(upload.file, { force: true }) };
  return upload;
}

export interface CatalogueReport {
  kind: "catalogue";
  /** Breaches created or brought up to date. */
  breaches: number;
  rejectedCount: number;
  rejected: Array<{ record: number; name?: string; reason: string }>;
}

export interface AccountsReport {
  kind: "accounts";
  rows: number;
  added: number;
  rejectedCount: number;
  rejected: Array<{ line: number; reason: string }>;
}

export interface StealerLogReport {
  kind: "stealer-logs";
  breach: string;
  rows: number;
  added: number;
  addresses: number;
  rejectedCount: number;
  rejected: Array<{ line: number; reason: string }>;
  resumedAtByte: number;
}

export type BreachDataReport = CatalogueReport | AccountsReport | StealerLogReport;

/**
 * Imports a received upload with the CLI's importers (the accounts and stealer-log files by COPY,
 * incremental matching queued in their transactions), then removes the file. A file that cannot be
 * imported at all is a 400 naming why, and changes nothing.
 */
export async function importUpload(
  db: Db,
  upload: ReceivedUpload,
  kind: BreachDataKind,
  options: { breachName?: string } = {},
): Promise<BreachDataReport> {
  try {
    if (kind === "catalogue") return await importCatalogueFile(db, upload.file);
    if (kind === "accounts") return await importAccountsFile(db, upload.file);
    return await importStealerLogFile(db, upload, options.breachName);
  } finally {
    await upload.discard();
  }
}

async function importCatalogueFile(db: Db, file: string): Promise<CatalogueReport> {
  let catalogue: unknown;
  try {
    catalogue = JSON.parse((await readFile(file, "utf8")).replace(/^\uFEFF/, ""));
  } catch (error) {
    throw badRequest(`The catalogue is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!Array.isArray(catalogue)) throw badRequest("The catalogue must be a JSON array of breaches (Have I Been Pwned's v3 format)");
  const result = await importCatalogue(db, catalogue);
  return {
    kind: "catalogue",
    breaches: result.imported,
    rejectedCount: result.rejected.length,
    rejected: result.rejected.slice(0, MAX_REPORTED_REJECTIONS),
  };
}

async function importAccountsFile(db: Db, file: string): Promise<AccountsReport> {
  try {
    const result = await importAccounts(db, file, { keepRejected: MAX_REPORTED_REJECTIONS });
    return { kind: "accounts", rows: result.rows, added: result.added, rejectedCount: result.rejectedCount, rejected: result.rejected };
  } catch (error) {
    if (error instanceof AccountsFileError) throw badRequest(`The accounts file cannot be imported: ${error.message}`);
    throw error;
  }
}

/**
 * A stealer-log upload is imported from a file named by its content, so the same file sent again
 * after an interrupted import (a restart, a deploy) resumes where the committed chunks end.
 */
async function importStealerLogFile(db: Db, upload: ReceivedUpload, breachName: string | undefined): Promise<StealerLogReport> {
  const breach = breachName?.trim();
  if (!breach) throw badRequest("Name the stealer-log breach the file belongs to (breach)");
  const named = path.join(path.dirname(upload.file), `stealer-logs-${upload.sha256}.csv`);
  await rename(upload.file, named);
  upload.file = named;
  try {
    const result = await importStealerLogs(db, { breachName: breach, file: named }, { keepRejected: MAX_REPORTED_REJECTIONS });
    return {
      kind: "stealer-logs",
      breach,
      rows: result.rows,
      added: result.added,
      addresses: result.addresses,
      rejectedCount: result.rejectedCount,
      rejected: result.rejected,
      resumedAtByte: result.resumedAtByte,
    };
  } catch (error) {
    if (error instanceof StealerLogImportError) throw badRequest(`The stealer-log file cannot be imported: ${error.message}`);
    throw error;
  }
}
