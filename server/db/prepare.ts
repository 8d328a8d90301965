import { openMissingBillingPeriods } from "../customers/billing-periods";
import { CUSTOMER_FIGURES_MIGRATION, recountCustomerFigures } from "../customers/figures";
import type { Database } from "./client";
import { migrateDatabase } from "./migrations";
import { seedSystemData } from "./seed";

/**
 * Brings a database up to date: pending migrations (under the advisory lock), the system rows and
 * billing periods for active customers that lack one (under a lock of their own), and, when this
 * run added the customers' stored figures, their first count.
 */
export async function prepareDatabase(database: Database): Promise<string[]> {
  const applied = await migrateDatabase(database);
  if (applied.includes(CUSTOMER_FIGURES_MIGRATION)) await recountCustomerFigures(database.prisma);
  // Processes starting at once take turns: the seed's inserts would otherwise race on the plans'
  // and categories' unique keys (the second process failed its start), and two processes could
  // both open a missing billing period.
  await database.prisma.$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${SYSTEM_DATA_LOCK_KEY}::bigint)`;
      await seedSystemData(tx);
      await openMissingBillingPeriods(tx);
    },
    { maxWait: 60_000, timeout: 120_000 },
  );
  return applied;
}

const SYSTEM_DATA_LOCK_KEY = 727_001_338;
