import type { Queryable } from "../db/client";

/**
 * The customer's billing periods (customer_billing_periods): stretches of time in which it was
 * `active` on one plan, which the billing overview counts per month. Kept in step with the
 * customer's status and plan in the transaction that changes them, so a month's figures do not
 * depend on when someone looks.
 *
 * Brings the customer's open period in line with its current status and plan: closes the open
 * one when the customer left `active` or moved to another plan, and opens one when it is active
 * without a period for its plan. One statement; idempotent. Call it in the transaction that
 * changed the customer, after the change, with the customer's row locked (or just written), so
 * two changes of one customer do not interleave.
 */
export async function syncBillingPeriod(tx: Queryable, customerId: string): Promise<void> {
  // Every CTE sees the table as it was before the statement: the insert's NOT EXISTS finds an
  // open period only when it is of the current plan, i.e. when the update leaves it open.
  await tx.$executeRaw`
    WITH customer AS (
      SELECT id, partner_id, plan_id, status FROM customers WHERE id = ${customerId}::uuid),
    closed AS (
      UPDATE customer_billing_periods period SET ended_at = now()
      FROM customer
      WHERE period.customer_id = customer.id AND period.ended_at IS NULL
        AND (customer.status <> 'active' OR period.plan_id <> customer.plan_id))
    INSERT INTO customer_billing_periods (customer_id, partner_id, plan_id, started_at)
    SELECT customer.id, customer.partner_id, customer.plan_id, now() FROM customer
    WHERE customer.status = 'active'
      AND NOT EXISTS (SELECT 1 FROM customer_billing_periods period
                      WHERE period.customer_id = customer.id AND period.ended_at IS NULL AND period.plan_id = customer.plan_id)`;
}

/**
 * Opens a period for every active customer that has none (from its last status change), for
 * customers that became active outside the services (rows written by hand or by an operator, or
 * before billing periods existed). Run when the database is prepared; idempotent.
 */
export async function openMissingBillingPeriods(db: Queryable): Promise<number> {
  return db.$executeRaw`
    INSERT INTO customer_billing_periods (customer_id, partner_id, plan_id, started_at)
    SELECT customer.id, customer.partner_id, customer.plan_id, customer.status_changed_at FROM customers customer
    WHERE customer.status = 'active'
      AND NOT EXISTS (SELECT 1 FROM customer_billing_periods period
                      WHERE period.customer_id = customer.id AND period.ended_at IS NULL)`;
}
