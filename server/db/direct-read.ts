import type { Db, Queryable } from "./client";
import { ownPerDatabase, setOwnPerDatabase } from "./per-database";

/**
 * Runs one parameterized statement ($1, $2, ...) on the database's driver and returns its rows.
 * With `preparedAs`, a driver that can keeps the statement prepared under that name on each
 * connection, so the server parses and plans it once per connection instead of on every call.
 */
export type DriverQuery = <T>(sql: string, params: unknown[], preparedAs?: string) => Promise<T[]>;

const SLOT = "exposure-monitor.direct-read";

/** Lets readRows send statements on this handle straight to its driver (server/db/client.ts, on open). */
export function registerDriverQuery(db: Db, query: DriverQuery): void {
  setOwnPerDatabase(db, SLOT, query);
}

/**
 * A read on a hot path, with its rows as the driver gives them (text as strings: cast in SQL
 * what needs casting). On the handle itself it goes to the driver directly: Prisma's raw-query
 * pipeline costs more than the driver does (measured: docs/measures.md, "Choices in the code"). In a
 * transaction, or on a handle opened elsewhere, it goes through Prisma (same SQL, same rows), so
 * it always sees what the caller's transaction sees.
 */
export function readRows<T>(db: Queryable, sql: string, params: unknown[], { preparedAs }: { preparedAs?: string } = {}): Promise<T[]> {
  const driverQuery = driverQueryOf(db);
  return driverQuery ? driverQuery<T>(sql, params, preparedAs) : db.$queryRawUnsafe<T[]>(sql, ...params);
}

/** The driver query registered on exactly this handle, if any. */
export function driverQueryOf(db: Queryable): DriverQuery | undefined {
  return ownPerDatabase<DriverQuery>(db as Db, SLOT);
}

const INDEX_SCAN_SLOT = "exposure-monitor.index-scan-query";

/**
 * Plain index scans wherever an index serves. Without them, a plan made while a table was small or
 * its statistics stale (a fresh database, a burst) scans the whole table.
 */
export const INDEX_SCANS_ONLY = { enable_bitmapscan: "off", enable_seqscan: "off" } as const;

/**
 * Session settings of indexScanRows: INDEX_SCANS_ONLY, and a prepared statement planned once (its
 * generic plan) instead of on every call; a cached plan that scanned whole tables would keep doing
 * so until the statistics change.
 */
export const INDEX_SCAN_SETTINGS = { ...INDEX_SCANS_ONLY, plan_cache_mode: "force_generic_plan" } as const;

/** Lets indexScanRows send statements on this handle to its driver (server/db/client.ts, on open). */
export function registerIndexScanQuery(db: Db, query: DriverQuery): void {
  setOwnPerDatabase(db, INDEX_SCAN_SLOT, query);
}

/**
 * One statement (it commits on its own) planned with INDEX_SCAN_SETTINGS, in one round trip:
 * for a queue's claims and results, run many times a second over rows that move between
 * statuses, each by index. Each move leaves a dead index entry until VACUUM; a plain index scan
 * marks those it meets so the next claim skips them, a bitmap scan revisits them all. On
 * PostgreSQL it runs on connections opened with those settings (a small pool of their own); on
 * PGlite in a transaction that sets them.
 */
export function indexScanRows<T>(db: Db, sql: string, params: unknown[], { preparedAs }: { preparedAs?: string } = {}): Promise<T[]> {
  const query = ownPerDatabase<DriverQuery>(db, INDEX_SCAN_SLOT);
  if (!query) throw new Error("index-scan statements need a database handle opened by openDatabase (server/db/client.ts)");
  return query<T>(sql, params, preparedAs);
}
