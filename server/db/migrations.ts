import { readFile } from "node:fs/promises";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import type { SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import { PrismaPGlite } from "pglite-prisma-adapter";
import type { Database } from "./client";
import { appliedMigrationNames, migrationDirectoryNames, MIGRATIONS_DIR, type SqlSession } from "./migration-status";
import { NO_FILTERS, openSchemaEngine, type MigrationsList } from "./schema-engine";

export { MIGRATIONS_DIR };
export const SCHEMA_PATH = path.resolve(process.cwd(), "prisma", "schema.prisma");

/** Any constant shared by every process of the service: they queue on it while one migrates. */
const MIGRATION_LOCK_KEY = 727_001_337;

/** The migrations folder in the shape the schema engine takes (Prisma Migrate's layout). */
export async function readMigrationsList(migrationsDir = MIGRATIONS_DIR): Promise<MigrationsList> {
  const lockPath = path.join(migrationsDir, "migration_lock.toml");
  const names = await migrationDirectoryNames(migrationsDir);
  const migrationDirectories = await Promise.all(
    names.map(async (name) => ({
      path: name,
      migrationFile: {
        path: "migration.sql",
        content: { tag: "ok" as const, value: await readFile(path.join(migrationsDir, name, "migration.sql"), "utf8") },
      },
    })),
  );
  return {
    baseDir: migrationsDir,
    lockfile: { path: lockPath, content: await readFile(lockPath, "utf8") },
    shadowDbInitScript: "",
    migrationDirectories,
  };
}

/** Applies the pending migrations of a database opened with openDatabase. */
export function migrateDatabase(database: Database): Promise<string[]> {
  return database.withMigrationAccess((session, adapterFactory) => applyPendingMigrations(session, adapterFactory));
}

/**
 * Applies pending migrations like `prisma migrate deploy`. Processes starting at once queue on
 * a PostgreSQL advisory lock held by `session`; when every migration is already recorded as
 * applied the engine is not loaded at all (a fast start).
 */
export async function applyPendingMigrations(
  session: SqlSession,
  adapterFactory: () => SqlMigrationAwareDriverAdapterFactory,
  migrationsDir = MIGRATIONS_DIR,
): Promise<string[]> {
  const migrationsList = await readMigrationsList(migrationsDir);
  await session.query(`SELECT pg_advisory_lock(${MIGRATION_LOCK_KEY})`);
  try {
    const applied = await appliedMigrationNames(session);
    if (migrationsList.migrationDirectories.every((dir) => applied.has(dir.path))) return [];
    const engine = await openSchemaEngine(adapterFactory());
    try {
      const result = await engine.applyMigrations({ migrationsList, filters: NO_FILTERS });
      return result.appliedMigrationNames;
    } finally {
      engine.free();
    }
  } finally {
    await session.query(`SELECT pg_advisory_unlock(${MIGRATION_LOCK_KEY})`);
  }
}

/**
 * `prisma migrate diff --from-migrations --to-schema`: replays the migrations on an in-memory
 * PGlite (the shadow database) and compares the result with schema.prisma. exitCode 0 means
 * no difference, 2 means the migrations do not produce the schema; `sql` is the script that
 * would close the gap (the next migration).
 */
export async function diffMigrationsAgainstSchema(
  migrationsDir = MIGRATIONS_DIR,
  schemaPath = SCHEMA_PATH,
): Promise<{ exitCode: number; sql: string }> {
  const migrationsList = await readMigrationsList(migrationsDir);
  const schema = await readFile(schemaPath, "utf8");
  const pglite = new PGlite();
  const engine = await openSchemaEngine(new PrismaPGlite(pglite));
  try {
    const result = await engine.diff({
      from: { tag: "migrations", ...migrationsList },
      to: { tag: "schemaDatamodel", files: [{ path: schemaPath, content: schema }] },
      script: true,
      exitCode: true,
      filters: NO_FILTERS,
    });
    return { exitCode: result.exitCode, sql: result.stdout ?? "" };
  } finally {
    engine.free();
    await pglite.close();
  }
}
