import type { Database } from "./client";
import { migrateDatabase } from "./migrations";
import { seedSystemData } from "./seed";

/** Brings a database up to date: pending migrations (under the advisory lock), then the system rows. */
export async function prepareDatabase(database: Database): Promise<string[]> {
  const applied = await migrateDatabase(database);
  await seedSystemData(database.prisma);
  return applied;
}
