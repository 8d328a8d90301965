import { normalizeDomain } from "../customers/asset-values";
import { CUSTOMER_NOT_FOUND, foundOrNotFound, ownedCustomerWhere } from "../customers/ownership";
import type { Db, Queryable } from "../db/client";
import type { DomainVerificationMethod, DomainVerificationStatus } from "../db/generated/enums";
import { notFound } from "../errors";

export const DOMAIN_NOT_FOUND = "Domain not found";
/** The TXT record's value is this prefix and the customer domain's token (docs/domains.md, "DNS"). */
export const TXT_RECORD_PREFIX = "exposure-monitor-verification=";

export interface CustomerDomainRow {
  id: string;
  customerId: string;
  domain: string;
  status: DomainVerificationStatus;
  method: DomainVerificationMethod | null;
  verifiedAt: Date | null;
  verifiedBy: string | null;
  note: string | null;
  dnsToken: string;
}

export interface DomainListing {
  domain: string;
  status: DomainVerificationStatus;
  method: DomainVerificationMethod | null;
  verifiedAt: string | null;
  verifiedBy: string | null;
  note: string | null;
  dnsRecord: { type: "TXT"; name: string; value: string };
  exposedAddressCount: number;
  breachCount: number;
}

/**
 * Gives each monitored domain of the customer its verification row (and so its DNS token) if it
 * has none yet: rows are made when a domain is first listed or verified, not at onboarding.
 */
export async function ensureCustomerDomains(db: Queryable, customerId: string): Promise<void> {
  await db.$executeRaw`
    INSERT INTO customer_domains (customer_id, domain)
    SELECT customer_id, value FROM monitored_assets WHERE customer_id = ${customerId}::uuid AND kind = 'domain'
    ORDER BY value
    ON CONFLICT (customer_id, domain) DO NOTHING`;
}

/**
 * The customer's monitored domains with their state and what was found at each: the distinct
 * exposed addresses and breaches, withheld ones included (so a prospect check still tells how
 * much a verification would show), sorted by domain.
 */
export async function customerDomainListing(db: Queryable, customerId: string): Promise<DomainListing[]> {
  await ensureCustomerDomains(db, customerId);
  const rows = await db.$queryRaw<
    Array<{
      domain: string;
      status: DomainVerificationStatus;
      method: DomainVerificationMethod | null;
      verifiedAt: Date | null;
      verifiedBy: string | null;
      note: string | null;
      dnsToken: string;
      addresses: number;
      breaches: number;
    }>
  >`
    WITH found AS (
      SELECT w.domain, w.email, w.breach_id FROM withheld_exposures w WHERE w.customer_id = ${customerId}::uuid
      UNION
      SELECT substr(e.email, strpos(e.email, '@') + 1), e.email, cb.breach_id
      FROM customer_breaches cb CROSS JOIN LATERAL unnest(cb.emails) AS e(email)
      WHERE cb.customer_id = ${customerId}::uuid
    ), counts AS (
      SELECT domain, count(DISTINCT email)::int AS addresses, count(DISTINCT breach_id)::int AS breaches FROM found GROUP BY domain
    )
    SELECT cd.domain, cd.status, cd.method, cd.verified_at AS "verifiedAt", cd.verified_by AS "verifiedBy", cd.note,
           cd.dns_token AS "dnsToken", coalesce(n.addresses, 0) AS addresses, coalesce(n.breaches, 0) AS breaches
    FROM monitored_assets a
    JOIN customer_domains cd ON cd.customer_id = a.customer_id AND cd.domain = a.value
    LEFT JOIN counts n ON n.domain = a.value
    WHERE a.customer_id = ${customerId}::uuid AND a.kind = 'domain'
    ORDER BY cd.domain`;
  return rows.map((row) => ({
    domain: row.domain,
    status: row.status,
    method: row.method,
    verifiedAt: row.verifiedAt?.toISOString() ?? null,
    verifiedBy: row.verifiedBy,
    note: row.note,
    dnsRecord: dnsRecordOf(row),
    exposedAddressCount: row.addresses,
    breachCount: row.breaches,
  }));
}

export function dnsRecordOf(row: { domain: string; dnsToken: string }): DomainListing["dnsRecord"] {
  return { type: "TXT", name: row.domain, value: `${TXT_RECORD_PREFIX}${row.dnsToken}` };
}

/** GET .../domains: the partner's customer's domains (docs/domains.md). */
export async function listCustomerDomains(db: Db, partnerId: string, customerId: string): Promise<DomainListing[]> {
  foundOrNotFound(await db.customer.findFirst({ where: ownedCustomerWhere(partnerId, customerId), select: { id: true } }));
  return customerDomainListing(db, customerId);
}

/**
 * One monitored domain of the customer with its verification row (made if missing). A domain the
 * customer does not monitor (or not a domain at all) is 404 Domain not found.
 */
export async function customerDomain(db: Queryable, customerId: string, rawDomain: string): Promise<CustomerDomainRow> {
  const domain = normalizeDomain(rawDomain);
  if (!domain) throw notFound(DOMAIN_NOT_FOUND);
  await db.$executeRaw`
    INSERT INTO customer_domains (customer_id, domain)
    SELECT customer_id, value FROM monitored_assets WHERE customer_id = ${customerId}::uuid AND kind = 'domain' AND value = ${domain}
    ON CONFLICT (customer_id, domain) DO NOTHING`;
  const rows = await db.$queryRaw<CustomerDomainRow[]>`
    SELECT cd.id::text, cd.customer_id::text AS "customerId", cd.domain, cd.status, cd.method, cd.verified_at AS "verifiedAt",
           cd.verified_by AS "verifiedBy", cd.note, cd.dns_token AS "dnsToken"
    FROM customer_domains cd
    JOIN monitored_assets a ON a.customer_id = cd.customer_id AND a.kind = 'domain' AND a.value = cd.domain
    WHERE cd.customer_id = ${customerId}::uuid AND cd.domain = ${domain}`;
  if (!rows[0]) throw notFound(DOMAIN_NOT_FOUND);
  return rows[0];
}

/** The partner's customer's monitored domain; another partner's customer is the usual not-found answer. */
export async function ownedCustomerDomain(
  db: Queryable,
  partnerId: string,
  customerId: string,
  domain: string,
): Promise<CustomerDomainRow> {
  foundOrNotFound(
    await db.customer.findFirst({ where: ownedCustomerWhere(partnerId, customerId), select: { id: true } }),
    CUSTOMER_NOT_FOUND,
  );
  return customerDomain(db, customerId, domain);
}
