import type { Db } from "../db/client";

export const NEW_CUSTOMER_WINDOW_DAYS = 30;

export interface PartnerAnalytics {
  /** Every customer of the partner, whatever its status. */
  totalCustomers: number;
  /** Customers in `active` status (full monitoring). */
  activeCustomers: number;
  /** Customers onboarded in the last 30 days. */
  newCustomerLast30Days: number;
  /** Monitored domains of the active customers. */
  totalMonitoredDomains: number;
  /** Monitored e-mail addresses of the active customers. */
  totalMonitoredEmails: number;
  /** Breach instances ever found for the partner's customers, resolved ones included. */
  totalBreachesDetected: number;
}

/**
 * The partner's account figures, counted by the database (no rows are loaded): three aggregate
 * queries that run side by side on the pool's connections.
 */
export async function getPartnerAnalytics(db: Db, partnerId: string, now = new Date()): Promise<PartnerAnalytics> {
  const since = new Date(now.getTime() - NEW_CUSTOMER_WINDOW_DAYS * 86_400_000);
  const [[customers], [assets], [breaches]] = await Promise.all([
    db.$queryRaw<Array<{ total: bigint; active: bigint; recent: bigint }>>`
      SELECT count(*) AS total,
             count(*) FILTER (WHERE status = 'active') AS active,
             count(*) FILTER (WHERE created_at >= ${since}) AS recent
      FROM customers WHERE partner_id = ${partnerId}::uuid`,
    db.$queryRaw<Array<{ domains: bigint; emails: bigint }>>`
      SELECT count(*) FILTER (WHERE a.kind = 'domain') AS domains,
             count(*) FILTER (WHERE a.kind = 'email') AS emails
      FROM customers c JOIN monitored_assets a ON a.customer_id = c.id
      WHERE c.partner_id = ${partnerId}::uuid AND c.status = 'active'`,
    db.$queryRaw<Array<{ total: bigint }>>`
      SELECT count(*) AS total
      FROM customers c JOIN customer_breaches b ON b.customer_id = c.id
      WHERE c.partner_id = ${partnerId}::uuid`,
  ]);
  return {
    totalCustomers: Number(customers!.total),
    activeCustomers: Number(customers!.active),
    newCustomerLast30Days: Number(customers!.recent),
    totalMonitoredDomains: Number(assets!.domains),
    totalMonitoredEmails: Number(assets!.emails),
    totalBreachesDetected: Number(breaches!.total),
  };
}
