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

/** The partner's account figures, counted by the database (no rows are loaded). */
export async function getPartnerAnalytics(db: Db, partnerId: string, now = new Date()): Promise<PartnerAnalytics> {
  const since = new Date(now.getTime() - NEW_CUSTOMER_WINDOW_DAYS * 86_400_000);
  const [row] = await db.$queryRaw<Array<Record<keyof PartnerAnalytics, bigint>>>`
    WITH partner_customers AS (
      SELECT id, status, created_at FROM customers WHERE partner_id = ${partnerId}::uuid
    )
    SELECT
      (SELECT count(*) FROM partner_customers) AS "totalCustomers",
      (SELECT count(*) FROM partner_customers WHERE status = 'active') AS "activeCustomers",
      (SELECT count(*) FROM partner_customers WHERE created_at >= ${since}) AS "newCustomerLast30Days",
      (SELECT count(*) FROM monitored_assets a JOIN partner_customers c ON c.id = a.customer_id
        WHERE c.status = 'active' AND a.kind = 'domain') AS "totalMonitoredDomains",
      (SELECT count(*) FROM monitored_assets a JOIN partner_customers c ON c.id = a.customer_id
        WHERE c.status = 'active' AND a.kind = 'email') AS "totalMonitoredEmails",
      (SELECT count(*) FROM customer_breaches b JOIN partner_customers c ON c.id = b.customer_id) AS "totalBreachesDetected"`;
  return {
    totalCustomers: Number(row!.totalCustomers),
    activeCustomers: Number(row!.activeCustomers),
    newCustomerLast30Days: Number(row!.newCustomerLast30Days),
    totalMonitoredDomains: Number(row!.totalMonitoredDomains),
    totalMonitoredEmails: Number(row!.totalMonitoredEmails),
    totalBreachesDetected: Number(row!.totalBreachesDetected),
  };
}
