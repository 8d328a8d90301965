import type { Db } from "./db/client";
import { appliedMigrationNames, migrationDirectoryNames } from "./db/migration-status";
import { AppError } from "./errors";
import { log } from "./log";

export const DATABASE_UNAVAILABLE = "Database unavailable";
export const MIGRATIONS_PENDING = "Database migrations pending";

let shippedMigrations: Promise<string[]> | undefined;

/**
 * Readiness (docs/operations.md, "Readiness"): the database answers and has applied every
 * migration this build ships (prisma/migrations/, read once per process). Migrations applied that
 * this build does not know (a newer replica's) do not count against it. No schema engine: the
 * applied names are read from _prisma_migrations, as the server's start does (db/instance.ts).
 */
export async function checkReadiness(db: Db): Promise<void> {
  let applied: Set<string>;
  try {
    applied = await appliedMigrationNames({ query: (sql) => db.$queryRawUnsafe(sql) });
  } catch (error) {
    log.error("health check: database unreachable", { error });
    throw new AppError("UNAVAILABLE", DATABASE_UNAVAILABLE);
  }
  shippedMigrations ??= migrationDirectoryNames().catch((error: unknown) => {
    shippedMigrations = undefined;
    throw error;
  });
  const pending = (await shippedMigrations).filter((name) => !applied.has(name));
  if (pending.length > 0) {
    log.error("health check: migrations pending", { pending });
    throw new AppError("UNAVAILABLE", MIGRATIONS_PENDING);
  }
}
