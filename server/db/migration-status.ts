import { readdir } from "node:fs/promises";
import path from "node:path";

export const MIGRATIONS_DIR = path.resolve(/*turbopackIgnore: true*/ process.cwd(), "prisma", "migrations");

/** A way to run plain SQL on one connection of the target database, outside Prisma Client. */
export interface SqlSession {
  query<T = Record<string, unknown>>(sql: string): Promise<T[]>;
}

export async function migrationDirectoryNames(migrationsDir = MIGRATIONS_DIR): Promise<string[]> {
  const entries = await readdir(/*turbopackIgnore: true*/ migrationsDir, { withFileTypes: true });
  return entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

export async function appliedMigrationNames(session: SqlSession): Promise<Set<string>> {
  const [table] = await session.query<{ name: string | null }>(`SELECT to_regclass('_prisma_migrations')::text AS name`);
  if (!table?.name) return new Set();
  const rows = await session.query<{ migration_name: string }>(
    `SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
  );
  return new Set(rows.map((row) => row.migration_name));
}

/** The migrations in prisma/migrations/ that the database has not applied (no engine needed). */
export async function pendingMigrationNames(session: SqlSession, migrationsDir = MIGRATIONS_DIR): Promise<string[]> {
  const applied = await appliedMigrationNames(session);
  return (await migrationDirectoryNames(migrationsDir)).filter((name) => !applied.has(name));
}
