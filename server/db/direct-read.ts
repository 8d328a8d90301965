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
