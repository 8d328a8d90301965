import { openMissingBillingPeriods } from "../customers/billing-periods";
import { CUSTOMER_FIGURES_MIGRATION, recountCustomerFigures } from "../customers/figures";
import type { Database } from "./client";
import { migrateDatabase } from "./migrations";
import { seedSystemData } from "./seed";

/**
 * Brings a database up to date: pending migrations (under the advisory lock), the system rows,
 * billing periods for active customers that lack one, and, when this run added the customers'
 * stored figures, their first count.
 */
export async function prepareDatabase(database: Database): Promise<string[]> {
  const applied = await migrateDatabase(database);
  if (applied.includes(CUSTOMER_FIGURES_MIGRATION)) await recountCustomerFigures(database.prisma);
  await seedSystemData(database.prisma);
  await openMissingBillingPeriods(database.prisma);
  return applied;
}
