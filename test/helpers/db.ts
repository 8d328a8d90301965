import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { PGlite } from "@electric-sql/pglite";
import { inject } from "vitest";
import { openDatabase, type Database, type Db } from "../../server/db/client";
import { createDatabase, dropDatabase } from "../../scripts/lib/scratch-database";

export interface TestDatabase {
  database: Database;
  db: Db;
  /** PostgreSQL URL of this database (undefined on PGlite). */
  url?: string;
  close(): Promise<void>;
}

/**
 * A fresh, migrated database of this test file's own: a clone of the run's template on
 * PostgreSQL, or a PGlite loaded from the migrated dump.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const template = inject("pgTemplate");
  if (template) {
    const name = `${template.runPrefix}_${randomBytes(4).toString("hex")}`;
    const url = await createDatabase(template.adminUrl, name, { template: template.name });
    const database = await openDatabase({ url });
    return {
      database,
      db: database.prisma,
      url,
      async close() {
        await database.close();
        await dropDatabase(template.adminUrl, name);
      },
    };
  }
  const dumpPath = inject("pgliteDump");
  if (!dumpPath) throw new Error("test/global-setup.ts did not run");
  const pglite = await PGlite.create({ loadDataDir: new Blob([await readFile(dumpPath)]) });
  const database = await openDatabase({ pglite });
  return { database, db: database.prisma, close: () => database.close() };
}

/** Where a driver-level test runs: the test database (PostgreSQL in CI) and a bare in-memory PGlite. */
export const DRIVER_TARGETS = ["the test database", "embedded PGlite"] as const;

/**
 * A database for one of DRIVER_TARGETS; the PGlite one is empty (no migrations). `onPostgres`
 * says whether it is a PostgreSQL server (the test database is PGlite too when TEST_DATABASE_URL is unset).
 * `env`: environment switches in force while the handle is opened.
 */
export async function openDriverTarget(
  target: (typeof DRIVER_TARGETS)[number],
  env: Record<string, string> = {},
): Promise<{ db: Db; onPostgres: boolean; close(): Promise<void> }> {
  // Switches such as BULK_COPY are read when a handle is opened: set them for the opening only.
  const previous = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
  Object.assign(process.env, env);
  try {
    return await openDriverTargetNow(target);
  } finally {
    for (const [name, value] of Object.entries(previous)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

async function openDriverTargetNow(
  target: (typeof DRIVER_TARGETS)[number],
): Promise<{ db: Db; onPostgres: boolean; close(): Promise<void> }> {
  if (target === "embedded PGlite") {
    const database = await openDatabase({ pglite: new PGlite() });
    return { db: database.prisma, onPostgres: false, close: () => database.close() };
  }
  const testDb = await createTestDatabase();
  return { db: testDb.db, onPostgres: testDb.url !== undefined, close: () => testDb.close() };
}
