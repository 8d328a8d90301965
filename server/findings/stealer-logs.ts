import type { Db } from "../db/client";
import { notFound } from "../errors";
import { CUSTOMER_NOT_FOUND } from "./instances";

export interface StealerLogEntry {
  email: string;
  /** The websites whose sign-ins the malware captured for the address, sorted. */
  websiteDomains: string[];
  /** The latest capture date the sources give (ISO date-time), null when none gives one. */
  capturedAt: string | null;
  /** The breach instance (breach/status `breachId`). */
  breachId: string;
}

/**
 * A customer's stealer-log findings (GET customer/{customerId}/stealer-logs): one entry per
 * address and stealer-log breach instance, only for addresses at a domain verified for the
 * customer now, whatever the domain policy (recordFindings withholds the others; a domain that
 * lost its verification hides them again here). Prospects get the count only.
 */
export async function listCustomerStealerLogs(
  db: Db,
  partnerId: string,
  customerId: string,
): Promise<{ success: true; count: number; entries: StealerLogEntry[] }> {
  const customer = await db.customer.findFirst({ where: { id: customerId, partnerId }, select: { status: true } });
  if (!customer) throw notFound(CUSTOMER_NOT_FOUND);
  const rows = await db.$queryRaw<Array<{ email: string; websiteDomains: string[]; capturedAt: Date | null; breachId: string }>>`
    SELECT e.email, cb.id::text AS "breachId",
           array_remove(array_agg(DISTINCT s.website_domain), NULL) AS "websiteDomains",
           max(s.captured_at) AS "capturedAt"
    FROM customer_breaches cb
    JOIN breaches b ON b.id = cb.breach_id AND b.is_stealer_log
    CROSS JOIN LATERAL unnest(cb.emails) AS e(email)
    JOIN customer_domains cd ON cd.customer_id = cb.customer_id AND cd.status = 'verified'
      AND cd.domain = substr(e.email, strpos(e.email, '@') + 1)
    LEFT JOIN stealer_log_exposures s ON s.domain = cd.domain AND s.email = e.email AND s.breach_id = cb.breach_id
    WHERE cb.customer_id = ${customerId}::uuid
    GROUP BY e.email, cb.id
    ORDER BY e.email, cb.id`;
  if (customer.status === "prospect") return { success: true, count: rows.length, entries: [] };
  return {
    success: true,
    count: rows.length,
    entries: rows.map((row) => ({
      email: row.email,
      websiteDomains: [...row.websiteDomains].sort(),
      capturedAt: row.capturedAt?.toISOString() ?? null,
      breachId: row.breachId,
    })),
  };
}
