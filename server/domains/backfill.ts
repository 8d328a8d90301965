import { refreshThreatScore } from "../customers/threat-score";
import { recountCustomerFigures } from "../customers/figures";
import type { Db } from "../db/client";
import { log } from "../log";

/** The migration that added domain verification; the start that applies it runs the backfill below once. */
export const DOMAIN_VERIFICATION_MIGRATION = "20261126200935_domain_verification";

/**
 * Sensitive breaches recorded before domain verification existed were shown for any monitored
 * address; now they need a domain verified for the customer (docs/domains.md). Moves each such
 * address of a sensitive breach instance into withheld_exposures, drops instances left empty,
 * and recounts the customers' figures and threat scores. One transaction; returns the number of
 * addresses withheld. (Events already sent cannot be taken back.)
 */
export async function withholdRecordedSensitiveBreaches(db: Db): Promise<number> {
  return db.$transaction(
    async (tx) => {
      const hidden = await tx.$queryRaw<Array<{ id: string; customerId: string; email: string; breachId: string }>>`
        SELECT cb.id::text, cb.customer_id::text AS "customerId", e.email, cb.breach_id::text AS "breachId"
        FROM customer_breaches cb
        JOIN breaches b ON b.id = cb.breach_id AND b.is_sensitive
        CROSS JOIN LATERAL unnest(cb.emails) AS e(email)
        WHERE NOT EXISTS (
          SELECT 1 FROM customer_domains cd
          WHERE cd.customer_id = cb.customer_id AND cd.status = 'verified' AND cd.domain = substr(e.email, strpos(e.email, '@') + 1))`;
      if (hidden.length === 0) return 0;
      await tx.$executeRaw`
        INSERT INTO withheld_exposures (customer_id, email, breach_id, domain)
        SELECT h.customer_id, h.email, h.breach_id, substr(h.email, strpos(h.email, '@') + 1)
        FROM unnest(${hidden.map((row) => row.customerId)}::uuid[], ${hidden.map((row) => row.email)}::text[],
                    ${hidden.map((row) => row.breachId)}::uuid[]) AS h(customer_id, email, breach_id)
        ON CONFLICT DO NOTHING`;
      await tx.$executeRaw`
        UPDATE customer_breaches cb
        SET emails = ARRAY(SELECT e FROM unnest(cb.emails) AS e WHERE NOT e = ANY(h.emails) ORDER BY e), updated_at = now()
        FROM (SELECT id, array_agg(email) AS emails FROM unnest(${hidden.map((row) => row.id)}::uuid[], ${hidden.map((row) => row.email)}::text[])
              AS x(id, email) GROUP BY id) AS h
        WHERE cb.id = h.id`;
      await tx.$executeRaw`DELETE FROM customer_breaches WHERE cardinality(emails) = 0`;
      const customerIds = [...new Set(hidden.map((row) => row.customerId))];
      await recountCustomerFigures(tx, customerIds);
      for (const customerId of customerIds) await refreshThreatScore(tx, customerId);
      log.info("sensitive breaches withheld until their domains are verified", { addresses: hidden.length, customers: customerIds.length });
      return hidden.length;
    },
    { maxWait: 60_000, timeout: 600_000 },
  );
}
