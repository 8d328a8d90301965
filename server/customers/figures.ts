import { Prisma, type Queryable } from "../db/client";

/**
 * A customer's stored figures (customers.monitored_domain_count, monitored_email_count,
 * breach_count) are what the partner analytics and the admin overview sum, so those read one row
 * per customer instead of joining every asset and breach instance. Onboarding writes them with
 * the customer; every other write of monitored assets or breach instances recounts the customer
 * here, in its transaction, while it holds the customer's row lock (asset updates and scans take
 * it first), so no concurrent change can slip between the count and the commit.
 *
 * Without `customerIds` every customer is recounted: the backfill after the migration that added
 * the columns. Only rows whose figures differ are written. Returns how many were.
 */
export async function recountCustomerFigures(db: Queryable, customerIds?: readonly string[]): Promise<number> {
  const which = customerIds ? Prisma.sql`c2.id = ANY(${customerIds as string[]}::uuid[])` : Prisma.sql`TRUE`;
  return db.$executeRaw`
    UPDATE customers c
    SET monitored_domain_count = f.domains, monitored_email_count = f.emails, breach_count = f.breaches
    FROM (
      SELECT c2.id,
             (SELECT count(*) FROM monitored_assets a WHERE a.customer_id = c2.id AND a.kind = 'domain')::int AS domains,
             (SELECT count(*) FROM monitored_assets a WHERE a.customer_id = c2.id AND a.kind = 'email' AND a.active)::int AS emails,
             (SELECT count(*) FROM customer_breaches b WHERE b.customer_id = c2.id)::int AS breaches
      FROM customers c2 WHERE ${which}
    ) f
    WHERE c.id = f.id
      AND (c.monitored_domain_count, c.monitored_email_count, c.breach_count) IS DISTINCT FROM (f.domains, f.emails, f.breaches)`;
}

/** The migration that added the figures; when a start applies it, every customer is counted once. */
export const CUSTOMER_FIGURES_MIGRATION = "20261122000909_customer_figures";
