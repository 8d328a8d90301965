import { Prisma, type Db } from "../db/client";

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

/** The partner's account figures (the partner API's analytics). */
export async function getPartnerAnalytics(db: Db, partnerId: string, now = new Date()): Promise<PartnerAnalytics> {
  const figures = await analyticsByPartner(db, Prisma.sql`= ${partnerId}::uuid`, now);
  return figures.get(partnerId) ?? emptyAnalytics();
}

export interface DistributorAnalytics {
  /** The figures summed over all the distributor's partners. */
  totals: PartnerAnalytics & { partners: number };
  /** Every partner of the distributor by name, with its figures. */
  partners: Array<{ partnerId: string; name: string } & PartnerAnalytics>;
}

/** The figures of each of the distributor's partners and their sum (the admin UI's overview). */
export async function getDistributorAnalytics(db: Db, distributorId: string, now = new Date()): Promise<DistributorAnalytics> {
  const [partners, figures] = await Promise.all([
    db.partner.findMany({ where: { distributorId }, orderBy: [{ name: "asc" }, { id: "asc" }], select: { id: true, name: true } }),
    analyticsByPartner(db, Prisma.sql`IN (SELECT id FROM partners WHERE distributor_id = ${distributorId}::uuid)`, now),
  ]);
  const rows = partners.map((partner) => ({ partnerId: partner.id, name: partner.name, ...(figures.get(partner.id) ?? emptyAnalytics()) }));
  const totals = { ...emptyAnalytics(), partners: partners.length };
  for (const row of rows) {
    for (const key of ANALYTICS_FIGURES) totals[key] += row[key];
  }
  return { totals, partners: rows };
}

const ANALYTICS_FIGURES = [
  "totalCustomers",
  "activeCustomers",
  "newCustomerLast30Days",
  "totalMonitoredDomains",
  "totalMonitoredEmails",
  "totalBreachesDetected",
] as const satisfies ReadonlyArray<keyof PartnerAnalytics>;

function emptyAnalytics(): PartnerAnalytics {
  return {
    totalCustomers: 0,
    activeCustomers: 0,
    newCustomerLast30Days: 0,
    totalMonitoredDomains: 0,
    totalMonitoredEmails: 0,
    totalBreachesDetected: 0,
  };
}

/**
 * The figures of the partners whose id matches `partnerIdFilter` (an SQL condition on the
 * partner id), counted by the database in one pass over the partners' customers: each customer
 * row carries its asset and breach counts (server/customers/figures.ts), so no asset or breach
 * row is read. Partners without customers are absent.
 */
async function analyticsByPartner(db: Db, partnerIdFilter: Prisma.Sql, now: Date): Promise<Map<string, PartnerAnalytics>> {
  const since = new Date(now.getTime() - NEW_CUSTOMER_WINDOW_DAYS * 86_400_000);
  const rows = await db.$queryRaw<
    Array<{ partnerId: string; total: bigint; active: bigint; recent: bigint; domains: bigint; emails: bigint; breaches: bigint }>
  >`
    SELECT partner_id::text AS "partnerId",
           count(*) AS total,
           count(*) FILTER (WHERE status = 'active') AS active,
           count(*) FILTER (WHERE created_at >= ${since}) AS recent,
           coalesce(sum(monitored_domain_count) FILTER (WHERE status = 'active'), 0) AS domains,
           coalesce(sum(monitored_email_count) FILTER (WHERE status = 'active'), 0) AS emails,
           coalesce(sum(breach_count), 0) AS breaches
    FROM customers WHERE partner_id ${partnerIdFilter}
    GROUP BY partner_id`;
  return new Map(
    rows.map((row) => [
      row.partnerId,
      {
        totalCustomers: Number(row.total),
        activeCustomers: Number(row.active),
        newCustomerLast30Days: Number(row.recent),
        totalMonitoredDomains: Number(row.domains),
        totalMonitoredEmails: Number(row.emails),
        totalBreachesDetected: Number(row.breaches),
      },
    ]),
  );
}
