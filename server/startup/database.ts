import { installAuditAppendOnly } from "../audit/append-only";
import { copySupportSignInEntries, STAFF_ACCESS_MIGRATION } from "../audit/support-sign-in-entries";
import { seedBreachCategories } from "../breaches/catalogue/categories";
import { RANGE_PREFIX_MIGRATION, requestRangePrefixesOfExistingRows } from "../breaches/exposure-index/range-prefixes";
import { openMissingBillingPeriods } from "../customers/billing-periods";
import { CUSTOMER_FIGURES_MIGRATION, recountCustomerFigures } from "../customers/figures";
import type { Database } from "../db/client";
import { migrateDatabase } from "../db/migrations";
import { DOMAIN_VERIFICATION_MIGRATION, withholdRecordedSensitiveBreaches } from "../domains/backfill";
import { seedSystemPlans } from "../distributors/system-plans";

/**
 * Brings a database up to date (every start, CLI run and test database): pending migrations
 * (server/db, under the migrations' advisory lock), then the domain's start-up steps: the system
 * plans and breach categories, and billing periods for active customers that lack one (under a
 * lock of their own), and, when this run added the customers' stored figures, their first count;
 * when it added domain verification, the sensitive breaches recorded before it are withheld;
 * when it added breach/range's hash prefixes, the job that fills them for the rows already there is queued; the
 * audit log's append-only trigger (and, when this run added the log, the support sign-in links
 * recorded before it, copied in).
 */
export async function prepareDatabase(database: Database): Promise<string[]> {
  const applied = await migrateDatabase(database);
  if (applied.includes(CUSTOMER_FIGURES_MIGRATION)) await recountCustomerFigures(database.prisma);
  if (applied.includes(DOMAIN_VERIFICATION_MIGRATION)) await withholdRecordedSensitiveBreaches(database.prisma);
  if (applied.includes(RANGE_PREFIX_MIGRATION)) await requestRangePrefixesOfExistingRows(database.prisma);
  // Processes starting at once take turns: the seed's inserts would otherwise race on the plans'
  // and categories' unique keys (the second process failed its start), and two processes could
  // both open a missing billing period.
  await database.prisma.$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${SYSTEM_DATA_LOCK_KEY}::bigint)`;
      await seedSystemPlans(tx);
      await seedBreachCategories(tx);
      await openMissingBillingPeriods(tx);
      await installAuditAppendOnly(tx);
      if (applied.includes(STAFF_ACCESS_MIGRATION)) await copySupportSignInEntries(tx);
    },
    { maxWait: 60_000, timeout: 120_000 },
  );
  return applied;
}

const SYSTEM_DATA_LOCK_KEY = 727_001_338;
