import type { Db } from "../db/client";
import type { DomainPolicy, DomainVerificationMethod, DomainVerificationStatus } from "../db/generated/enums";
import { badRequest, notFound } from "../errors";
import { isUuid } from "../uuid";
import { customerDomain } from "./domains";
import { markDomainVerified } from "./verify";

/** How far back the admin UI's list of new domains looks (docs/admin-ui.md, "Domains"). */
export const RECENT_DOMAIN_DAYS = 30;
/** At most this many rows per page of the list, newest first. */
export const RECENT_DOMAIN_LIMIT = 500;
export const NOTE_REQUIRED = "A note is required: say why you vouch for this domain";
const NOTE_MAX = 500;

export interface RecentDomain {
  partnerId: string;
  partnerName: string;
  customerId: string;
  companyName: string;
  customerStatus: string;
  domain: string;
  addedAt: Date;
  status: DomainVerificationStatus;
  method: DomainVerificationMethod | null;
  verifiedAt: Date | null;
  verifiedBy: string | null;
  note: string | null;
  /** Partners (of any distributor) with a customer, not offboarded, that monitors the domain. */
  partnersMonitoring: number;
}

/**
 * The domains the distributor's partners' customers started monitoring in the last 30 days,
 * newest first, with their verification state and how many partners' customers monitor each
 * (two or more is the sign of a domain onboarded by someone it does not belong to).
 */
export async function recentCustomerDomains(
  db: Db,
  distributorId: string,
  { partnerId }: { partnerId?: string } = {},
): Promise<RecentDomain[]> {
  return db.$queryRaw<RecentDomain[]>`
    SELECT p.id::text AS "partnerId", p.name AS "partnerName", c.id::text AS "customerId", c.company_name AS "companyName",
           c.status::text AS "customerStatus", a.value AS domain, a.created_at AS "addedAt",
           coalesce(cd.status, 'unverified') AS status, cd.method, cd.verified_at AS "verifiedAt", cd.verified_by AS "verifiedBy", cd.note,
           (SELECT count(DISTINCT other.partner_id)::int FROM monitored_assets oa JOIN customers other ON other.id = oa.customer_id
            WHERE oa.kind = 'domain' AND oa.value = a.value AND other.status <> 'inactive') AS "partnersMonitoring"
    FROM monitored_assets a
    JOIN customers c ON c.id = a.customer_id
    JOIN partners p ON p.id = c.partner_id
    LEFT JOIN customer_domains cd ON cd.customer_id = a.customer_id AND cd.domain = a.value
    WHERE p.distributor_id = ${distributorId}::uuid AND a.kind = 'domain'
      AND a.created_at > now() - make_interval(days => ${RECENT_DOMAIN_DAYS})
      AND (${partnerId ?? null}::uuid IS NULL OR p.id = ${partnerId ?? null}::uuid)
    ORDER BY a.created_at DESC, a.value
    LIMIT ${RECENT_DOMAIN_LIMIT}`;
}

/** At most this many rows of the list of addresses withheld past the lookup budget, most first. */
export const WITHHELD_LISTING_LIMIT = 500;

export interface WithheldListing {
  partnerId: string;
  partnerName: string;
  domain: string;
  /** The partner's listed addresses at the domain withheld past its lookup budget. */
  addresses: number;
  customers: number;
  lastWithheldAt: Date;
}

/**
 * Per partner of the distributor and domain, the addresses its customers list (or their directories
 * bring) at a domain not verified for them that were withheld past the partner's lookup budget
 * (docs/domains.md, "Addresses a partner lists"): many at one domain is the sign of someone trying
 * guesses at a domain that is not theirs. Most first.
 */
export async function withheldListings(
  db: Db,
  distributorId: string,
  { partnerId }: { partnerId?: string } = {},
): Promise<WithheldListing[]> {
  return db.$queryRaw<WithheldListing[]>`
    SELECT p.id::text AS "partnerId", p.name AS "partnerName", w.domain, count(*)::int AS addresses,
           count(DISTINCT w.customer_id)::int AS customers, max(w.created_at) AS "lastWithheldAt"
    FROM withheld_addresses w
    JOIN customers c ON c.id = w.customer_id
    JOIN partners p ON p.id = c.partner_id
    WHERE p.distributor_id = ${distributorId}::uuid AND (${partnerId ?? null}::uuid IS NULL OR p.id = ${partnerId ?? null}::uuid)
    GROUP BY p.id, p.name, w.domain
    ORDER BY addresses DESC, p.name, w.domain
    LIMIT ${WITHHELD_LISTING_LIMIT}`;
}

/**
 * A staff member vouches for a customer's domain (the distributor knows the customer by
 * contract): verified with method `staff`, their name and the required note, as any verification
 * (customer.domain.verified, then what was withheld). Only customers of the distributor's partners.
 */
export async function attestDomain(
  db: Db,
  staff: { distributorId: string; staffId: string },
  input: { customerId: string; domain: string; note: string },
): Promise<{ verified: boolean }> {
  const note = input.note.trim();
  if (note === "") throw badRequest(NOTE_REQUIRED);
  if (note.length > NOTE_MAX) throw badRequest(`The note must be at most ${NOTE_MAX} characters`);
  const owned =
    isUuid(input.customerId) &&
    (await db.customer.findFirst({
      where: { id: input.customerId, partner: { distributorId: staff.distributorId } },
      select: { id: true },
    }));
  if (!owned) throw notFound("Customer not found");
  const member = await db.staffUser.findUniqueOrThrow({ where: { id: staff.staffId }, select: { name: true, email: true } });
  const row = await customerDomain(db, input.customerId, input.domain);
  const verified = await markDomainVerified(db, row.id, { method: "staff", by: member.name?.trim() || member.email, note });
  return { verified };
}

export async function distributorDomainPolicy(db: Db, distributorId: string): Promise<DomainPolicy> {
  return (await db.distributor.findUniqueOrThrow({ where: { id: distributorId }, select: { domainPolicy: true } })).domainPolicy;
}
