import { openMissingBillingPeriods } from "../customers/billing-periods";
import type { Database } from "./client";
import { migrateDatabase } from "./migrations";
import { seedSystemData } from "./seed";

/**
 * Brings a database up to date: pending migrations (under the advisory lock), the system rows,
 * and billing periods for active customers that lack one.
 */
export async function prepareDatabase(database: Database): Promise<string[]> {
  const applied = await migrateDatabase(database);
  await seedSystemData(database.prisma);
  await openMissingBillingPeriods(database.prisma);
  return applied;
}
