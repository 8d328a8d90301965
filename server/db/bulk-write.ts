import { once } from "node:events";
import { finished } from "node:stream/promises";
import type { PGlite } from "@electric-sql/pglite";
import type pg from "pg";
import { from as copyFrom, type CopyStreamQuery } from "pg-copy-streams";
import type { Db } from "./client";
import { INDEX_SCANS_ONLY } from "./direct-read";
import { ownPerDatabase, setOwnPerDatabase } from "./per-database";

/**
 * One transaction on a connection of its own, for bulk writes that Prisma's query pipeline would
 * slow down: rows go in through COPY, PostgreSQL's bulk-load path, far faster than the same rows
 * as text parameters the server splits (measured: docs/measures.md, "Choices in the code").
 */
export interface BulkTransaction {
  /** Runs one statement ($1, $2, ... parameters) and returns how many rows it wrote. */
  execute(sql: string, params?: unknown[]): Promise<number>;
  /** Runs one statement and returns its rows (as the driver parses them). */
  query<Row>(sql: string, params?: unknown[]): Promise<Row[]>;
  /**
   * Starts appending rows to a table with COPY. Rows are in COPY's text format: one line per row
   * ending in "\n", columns separated by tabs; a backslash, tab or line break inside a value must
   * be escaped by the caller. No other statement may run on the transaction until the sink ends.
   */
  copyInto(table: string, columns: readonly string[]): RowSink;
}

export interface RowSink {
  /** Sends rows; resolves when more may be sent (the database keeps pace), rejects if the copy failed. */
  write(rows: string): Promise<void>;
  /** Finishes the copy; resolves once the database has stored every row. */
  end(): Promise<void>;
}

export interface BulkTransactionOptions {
  /**
   * Plans the transaction's statements with INDEX_SCANS_ONLY (direct-read.ts), as indexScanRows
   * does: for a queue read by `ORDER BY ... LIMIT`, which stale statistics after a burst would
   * otherwise have sort every waiting row.
   */
  indexScans?: boolean;
}

/** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
export type BulkTransactionRunner = <T>(work: (tx: BulkTransaction) => Promise<T>, options?: BulkTransactionOptions) => Promise<T>;

const SLOT = "exposure-monitor.bulk-write";

/** Lets inBulkTransaction open transactions on this handle's driver (server/db/client.ts, on open). */
export function registerBulkTransactions(db: Db, run: BulkTransactionRunner): void {
  setOwnPerDatabase(db, SLOT, run);
}

export function inBulkTransaction<T>(db: Db, work: (tx: BulkTransaction) => Promise<T>, options?: BulkTransactionOptions): Promise<T> {
  const run = ownPerDatabase<BulkTransactionRunner>(db, SLOT);
  if (!run) throw new Error("bulk writes need a database handle opened by openDatabase (server/db/client.ts)");
  return run(work, options);
}

/** The settings the options ask for, for the transaction only; undefined when none. */
function localSettings(options?: BulkTransactionOptions): string | undefined {
  if (!options?.indexScans) return undefined;
  return Object.entries(INDEX_SCANS_ONLY)
    .map(([name, value]) => `SET LOCAL ${name} = ${value}`)
    .join("; ");
}

/** `COPY table (columns)` for a table and column names written in code (quoted, never user input). */
function copyTarget(table: string, columns: readonly string[]): string {
  return `COPY ${quoteIdentifier(table)} (${columns.map(quoteIdentifier).join(", ")})`;
}

function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** PostgreSQL: a pooled connection held for the transaction; COPY ... FROM STDIN. */
export function postgresBulkTransactions(pool: pg.Pool): BulkTransactionRunner {
  return async (work, options) => {
    const client = await pool.connect();
    const copies = new Set<CopyStreamQuery>();
    let broken: Error | undefined;
    try {
      const settings = localSettings(options);
      // one round trip: a query without parameters may hold several statements
      await client.query(settings ? `BEGIN; ${settings}` : "BEGIN");
      const result = await work({
        execute: async (sql, params) => (await client.query(sql, params)).rowCount ?? 0,
        query: async <Row>(sql: string, params?: unknown[]) => (await client.query(sql, params)).rows as Row[],
        copyInto(table, columns) {
          // One COPY for every row: the server parses and stores rows while the next are prepared.
          const copy = client.query(copyFrom(`${copyTarget(table, columns)} FROM STDIN`));
          copies.add(copy);
          const done = finished(copy).finally(() => copies.delete(copy));
          done.catch(() => undefined); // reported by the next write() or by end()
          return {
            async write(rows) {
              if (!copy.write(rows)) await Promise.race([once(copy, "drain"), done]);
            },
            async end() {
              copy.end();
              await done;
            },
          };
        },
      });
      await client.query("COMMIT");
      return result;
    } catch (error) {
      // A COPY left open would hold the connection: cancel it (the server fails it) before rolling back.
      for (const copy of copies) {
        copy.destroy(new Error("the transaction failed"));
        await finished(copy).catch(() => undefined);
      }
      await client.query("ROLLBACK").catch((rollbackError: Error) => (broken = rollbackError));
      throw error;
    } finally {
      // A connection that could not even roll back is closed rather than returned to the pool.
      client.release(broken);
    }
  };
}

/** PGlite: its own transaction API (other queries wait meanwhile); COPY reads each batch as a blob. */
export function pgliteBulkTransactions(pglite: PGlite): BulkTransactionRunner {
  return (work, options) =>
    pglite.transaction(async (tx) => {
      const settings = localSettings(options);
      if (settings) await tx.exec(settings);
      return work({
        execute: async (sql, params) => (await tx.query(sql, params)).affectedRows ?? 0,
        query: async <Row>(sql: string, params?: unknown[]) => (await tx.query<Row>(sql, params)).rows,
        copyInto(table, columns) {
          // PGlite runs in this thread: each batch is one COPY of its own, read from a blob.
          const statement = `${copyTarget(table, columns)} FROM '/dev/blob'`;
          return {
            async write(rows) {
              await tx.query(statement, [], { blob: new Blob([rows]) });
            },
            async end() {},
          };
        },
      });
    });
}

/** PostgreSQL's limit on parameters per statement. */
const MAX_PARAMETERS = 65_535;

/**
 * The same transactions with COPY switched off (BULK_COPY=false): rows sent to a sink go in as
 * multi-row INSERTs on the transaction, for a database or proxy that does not accept COPY.
 */
export function withInsertsInsteadOfCopy(run: BulkTransactionRunner): BulkTransactionRunner {
  return (work, options) => run((tx) => work({ ...tx, copyInto: (table, columns) => insertingSink(tx, table, columns) }), options);
}

function insertingSink(tx: BulkTransaction, table: string, columns: readonly string[]): RowSink {
  const target = `INSERT INTO ${quoteIdentifier(table)} (${columns.map(quoteIdentifier).join(", ")}) VALUES `;
  const rowsPerStatement = Math.floor(MAX_PARAMETERS / columns.length);
  return {
    async write(rows) {
      const lines = rows.split("\n");
      if (lines.at(-1) === "") lines.pop();
      for (let start = 0; start < lines.length; start += rowsPerStatement) {
        const params: Array<string | null> = [];
        const tuples = lines.slice(start, start + rowsPerStatement).map((line) => {
          const fields = line.split("\t");
          if (fields.length !== columns.length) {
            throw new Error(`a row for ${table} has ${fields.length} columns, expected ${columns.length}: "${line.slice(0, 100)}"`);
          }
          const first = params.length;
          params.push(...fields.map(copyTextValue));
          return `(${fields.map((_, index) => `$${first + index + 1}`).join(", ")})`;
        });
        await tx.execute(target + tuples.join(", "), params);
      }
    },
    async end() {},
  };
}

const COPY_ESCAPES: Record<string, string> = { b: "\b", f: "\f", n: "\n", r: "\r", t: "\t", v: "\v" };

/** A value in COPY's text format as the value itself: \N is null, backslash escapes decoded. */
function copyTextValue(field: string): string | null {
  if (field === "\\N") return null;
  return field.replace(/\\(x[0-9a-fA-F]{1,2}|[0-7]{1,3}|.)/g, (_, escape: string) => {
    if (escape[0] === "x") return String.fromCharCode(parseInt(escape.slice(1), 16));
    if (/^[0-7]/.test(escape)) return String.fromCharCode(parseInt(escape, 8));
    return COPY_ESCAPES[escape] ?? escape;
  });
}
