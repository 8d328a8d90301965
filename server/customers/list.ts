import { Prisma, type Db } from "../db/client";
import type { CustomerStatus } from "../db/generated/enums";

export const CUSTOMER_STATUSES = ["active", "inactive", "dormant", "prospect"] as const satisfies readonly CustomerStatus[];

export interface CustomerListQuery {
  page: number;
  pageSize: number;
  status?: CustomerStatus;
}

export interface CustomerListItem {
  customerId: string;
  customerRef: string;
  customerStatus: CustomerStatus;
  breachStatus: boolean;
  /** Breach instances of the customer, resolved ones included. */
  breachCount: number;
  domains: string[];
  emails: string[];
  /** Beyond the partner API's list item, for the admin UI; the REST answer leaves them out. */
  companyName: string;
  planType: string;
  threatScore: number;
  lastScannedAt: Date | null;
}

export interface CustomerListPage {
  customers: CustomerListItem[];
  pagination: { totalCount: number; page: number; pageSize: number; hasNextPage: boolean };
}

/**
 * One page of the partner's customers, newest first (ties by id, so pages never overlap or skip),
 * optionally of one status. totalCount counts every customer the filter matches.
 *
 * The page's ids come from an index-only scan of (partner_id[, status], created_at, id); only
 * those rows are then read, with their breach count and sorted assets from the per-customer
 * indexes. The total is counted by the database alongside.
 */
export async function listPartnerCustomers(db: Db, partnerId: string, query: CustomerListQuery): Promise<CustomerListPage> {
  const { page, pageSize, status } = query;
  const statusFilter = status ? Prisma.sql`AND status = ${status}::customer_status` : Prisma.empty;
  const [totalCount, rows] = await Promise.all([
    db.customer.count({ where: { partnerId, ...(status ? { status } : {}) } }),
    db.$queryRaw<Array<Omit<CustomerListItem, "breachStatus">>>`
      WITH page AS (
        SELECT id, created_at FROM customers
        WHERE partner_id = ${partnerId}::uuid ${statusFilter}
        ORDER BY created_at DESC, id DESC
        OFFSET ${(page - 1) * pageSize} LIMIT ${pageSize})
      SELECT c.id::text AS "customerId", c.reference AS "customerRef", c.status::text AS "customerStatus",
        c.company_name AS "companyName", c.threat_score AS "threatScore", c.last_scanned_at AS "lastScannedAt",
        (SELECT p.plan_type FROM plans p WHERE p.id = c.plan_id) AS "planType",
        (SELECT count(*) FROM customer_breaches b WHERE b.customer_id = c.id)::int AS "breachCount",
        ARRAY(SELECT a.value FROM monitored_assets a WHERE a.customer_id = c.id AND a.kind = 'domain'
              ORDER BY a.value COLLATE "C") AS domains,
        ARRAY(SELECT a.value FROM monitored_assets a WHERE a.customer_id = c.id AND a.kind = 'email' AND a.active
              ORDER BY a.value COLLATE "C") AS emails
      FROM page JOIN customers c ON c.id = page.id
      ORDER BY page.created_at DESC, page.id DESC`,
  ]);
  return {
    customers: rows.map((row) => ({ ...row, breachStatus: row.breachCount > 0 })),
    pagination: { totalCount, page, pageSize, hasNextPage: page * pageSize < totalCount },
  };
}
