import { mkdirSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import type { SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { config } from "../config";
import { log } from "../log";
import {
  pgliteBulkTransactions,
  postgresBulkTransactions,
  registerBulkTransactions,
  withInsertsInsteadOfCopy,
  type BulkTransactionRunner,
} from "./bulk-write";
import { INDEX_SCAN_SETTINGS, registerDriverQuery, registerIndexScanQuery, type DriverQuery } from "./direct-read";
import { acquireEmbeddedLock } from "./embedded-lock";
import { PrismaClient, type Prisma } from "./generated/client";
import type { SqlSession } from "./migration-status";
import { attachListenNotify, pgliteListenNotify, postgresListenNotify, type ListenNotify } from "./listen-notify";

export { Prisma, PrismaClient } from "./generated/client";
export type Db = PrismaClient;

/** Anything that runs queries: the client or an interactive transaction. */
export type Queryable = Prisma.TransactionClient | Db;

export interface Database {
  prisma: PrismaClient;
  /** Where the data lives, for messages: a redacted URL or the PGlite directory. */
  location: string;
  embedded: boolean;
  /** LISTEN/NOTIFY on this database (also reachable from `prisma` through listenNotifyOf). */
  listenNotify: ListenNotify;
  /**
   * Runs `work` with one dedicated SQL session (for the migration advisory lock) and a factory
   * of the driver adapter that Prisma's schema engine needs (created only when asked for).
   */
  withMigrationAccess<T>(
    work: (session: SqlSession, adapterFactory: () => SqlMigrationAwareDriverAdapterFactory) => Promise<T>,
  ): Promise<T>;
  close(): Promise<void>;
}

/**
 * Interactive transactions wait up to 10 s for a connection (Prisma's default, 2 s, turns a burst
 * that exhausts the pool, or PGlite's single connection, into failed requests) and may run 15 s.
 */
const transactionOptions = { maxWait: 10_000, timeout: 15_000 };

export type DatabaseTarget = { url: string } | { dataDir: string } | { pglite: PGlite };

/** The database from the environment: PostgreSQL when DATABASE_URL is set, else PGlite in DATA_DIR. */
export function databaseTargetFromEnv(): DatabaseTarget {
  const url = config.databaseUrl();
  return url ? { url } : { dataDir: config.dataDir() };
}

export async function openDatabase(target: DatabaseTarget = databaseTargetFromEnv()): Promise<Database> {
  if ("url" in target) return openPostgres(target.url);
  if ("pglite" in target) return openPglite(target.pglite, "(in memory)", () => undefined);
  const releaseLock = acquireEmbeddedLock(target.dataDir);
  try {
    const dir = path.join(target.dataDir, "pglite");
    mkdirSync(dir, { recursive: true });
    const pglite = await PGlite.create(dir);
    return openPglite(pglite, dir, releaseLock);
  } catch (error) {
    releaseLock();
    throw error;
  }
}

/**
 * Hot-path reads straight to the driver and bulk loads through COPY, unless DIRECT_DRIVER_READS or
 * BULK_COPY switch them off (ARCHITECTURE.md, "Custom infrastructure").
 */
function registerDriverPaths(prisma: Db, paths: { driverQuery: DriverQuery; bulkTransactions: BulkTransactionRunner }): void {
  if (config.directDriverReads()) registerDriverQuery(prisma, paths.driverQuery);
  registerBulkTransactions(prisma, config.bulkCopy() ? paths.bulkTransactions : withInsertsInsteadOfCopy(paths.bulkTransactions));
}

/**
 * One statement on a pg pool, prepared under `preparedAs` when given. The text and values go in
 * as such, never as a config object: pg copies a config object through its property descriptors
 * on every query, the largest single cost in a profile of the REST dispatcher (docs/measures.md,
 * "Choices in the code"). A prepared statement is a pg Query built from the text with its name set, which
 * the pool runs as it runs any query.
 */
async function poolQuery<T>(pool: pg.Pool, text: string, values: unknown[], preparedAs?: string): Promise<T[]> {
  if (!preparedAs) return (await pool.query(text, values)).rows as T[];
  const query: pg.Query & { name?: string } = new pg.Query(text, values);
  query.name = preparedAs;
  const result = (await pool.query(query as unknown as pg.QueryConfig)) as unknown as pg.QueryResult;
  return result.rows as T[];
}

function openPostgres(url: string): Database {
  const pool = new pg.Pool({ connectionString: url, max: config.databasePoolSize() });
  // Prisma listens for idle-connection errors only while connected; a connection the server drops
  // while the pool is closing (a dropped test database, a restart) must not crash the process.
  pool.on("error", (error) => log.warn("idle database connection failed", { error: error.message }));
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool), transactionOptions });
  registerDriverPaths(prisma, {
    driverQuery: (sql, params, preparedAs) => poolQuery(pool, sql, params, preparedAs),
    bulkTransactions: postgresBulkTransactions(pool),
  });
  // indexScanRows: a couple of connections whose sessions start with its settings
  const indexScanPool = new pg.Pool({
    connectionString: url,
    max: 2,
    options: Object.entries(INDEX_SCAN_SETTINGS)
      .map(([name, value]) => `-c ${name}=${value}`)
      .join(" "),
  });
  indexScanPool.on("error", (error) => log.warn("idle database connection failed", { error: error.message }));
  registerIndexScanQuery(prisma, (sql, params, preparedAs) => poolQuery(indexScanPool, sql, params, preparedAs));
  const listenNotify = postgresListenNotify(url);
  attachListenNotify(prisma, listenNotify);
  return {
    prisma,
    location: redactUrl(url),
    embedded: false,
    listenNotify,
    async withMigrationAccess(work) {
      const sessionClient = new pg.Client({ connectionString: url });
      let enginePool: pg.Pool | undefined;
      await sessionClient.connect();
      try {
        const session: SqlSession = { query: async (sql) => (await sessionClient.query(sql)).rows };
        return await work(session, () => {
          enginePool ??= new pg.Pool({ connectionString: url, max: 2 });
          return new PrismaPg(enginePool);
        });
      } finally {
        await sessionClient.end();
        await enginePool?.end();
      }
    },
    async close() {
      await listenNotify.close();
      await prisma.$disconnect();
      await pool.end().catch(() => undefined);
      await indexScanPool.end().catch(() => undefined);
    },
  };
}

function openPglite(pglite: PGlite, location: string, releaseLock: () => void): Database {
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite), transactionOptions });
  registerDriverPaths(prisma, {
    driverQuery: async <T>(sql: string, params: unknown[]) => (await pglite.query<T>(sql, params)).rows,
    bulkTransactions: pgliteBulkTransactions(pglite),
  });
  registerIndexScanQuery(prisma, (sql, params) =>
    pglite.transaction(async (tx) => {
      await tx.query("SELECT set_config(name, value, true) FROM unnest($1::text[], $2::text[]) AS s(name, value)", [
        Object.keys(INDEX_SCAN_SETTINGS),
        Object.values(INDEX_SCAN_SETTINGS),
      ]);
      return (await tx.query(sql, params)).rows as never[];
    }),
  );
  const listenNotify = pgliteListenNotify(pglite);
  attachListenNotify(prisma, listenNotify);
  return {
    prisma,
    location,
    embedded: true,
    listenNotify,
    withMigrationAccess(work) {
      const session: SqlSession = { query: async <T>(sql: string) => (await pglite.query<T>(sql)).rows };
      return work(session, () => new PrismaPGlite(pglite) as unknown as SqlMigrationAwareDriverAdapterFactory);
    },
    async close() {
      await listenNotify.close();
      await prisma.$disconnect();
      if (!pglite.closed) await pglite.close();
      releaseLock();
    },
  };
}

function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "(database url)";
  }
}
