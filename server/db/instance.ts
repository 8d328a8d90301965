import { onShutdown } from "../shutdown";
import { openDatabase, type Database, type Db } from "./client";
import { pendingMigrationNames } from "./migration-status";
import { processSlot } from "../process-slot";

/** The server refuses a database on which migrations it ships are not applied. */
export class PendingMigrationsError extends Error {
  constructor(
    location: string,
    readonly pending: string[],
  ) {
    super(
      `The database at ${location} has pending migrations (${pending.join(", ")}). ` +
        "Start the service with `npm start` (it migrates first) or run `npm run db:migrate`.",
    );
    this.name = "PendingMigrationsError";
  }
}

const appDatabase = processSlot<Promise<Database>>("app-database");

/**
 * The server process's database, opened on first use. Migrations are applied by the start
 * script before the server starts (scripts/start.ts); here they are only checked, so the server
 * never loads the schema engine and refuses to run on a schema it does not match.
 */
export function getAppDatabase(): Promise<Database> {
  return appDatabase.getOrCreate(() =>
    openCheckedDatabase().catch((error: unknown) => {
      appDatabase.set(undefined);
      throw error;
    }),
  );
}

async function openCheckedDatabase(): Promise<Database> {
  const database = await openDatabase();
  const pending = await database.withMigrationAccess((session) => pendingMigrationNames(session));
  if (pending.length > 0) {
    await database.close();
    throw new PendingMigrationsError(database.location, pending);
  }
  onShutdown("database", "database", () => database.close());
  return database;
}

export async function getAppDb(): Promise<Db> {
  return (await getAppDatabase()).prisma;
}
