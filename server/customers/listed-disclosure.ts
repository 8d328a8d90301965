import { config } from "../config";
import type { Queryable } from "../db/client";
import { domainOfEmail } from "../email-address";
import { log } from "../log";
import { takeUpTo } from "../rate-limit";

/** The rate-limit key's prefix of a partner's budget of listed addresses (docs/domains.md, "Addresses a partner lists"). */
export const LISTED_DISCLOSURE_POLICY = "listed-address-disclosure";

export interface ListedAddresses {
  partnerId: string;
  customerId: string;
  /** E-mail assets just added for the customer, in the order the partner (or its directory) listed them. */
  addresses: ReadonlyArray<{ id: string; value: string }>;
  /** Domains whose ownership is proven otherwise (a connected directory's verified domains): no budget needed. */
  ownedDomains?: readonly string[];
}

/**
 * Decides whether the partner may learn what is found of addresses it just listed (docs/domains.md,
 * "Addresses a partner lists"). Listing an address is a lookup: without a budget a partner would
 * list thousands of guesses at someone else's domain and read from its breach list which are
 * exposed. An address needs nothing at a domain verified for the customer or owned otherwise, or
 * when the partner was granted it before (for any of its customers); each other one takes one
 * lookup of the partner's per-minute budget (as many as breach/retrieve allows one API key,
 * counted per partner so that several keys do not multiply it) while it has room, and is recorded
 * as granted. The rest are withheld (withheld_addresses): monitored, what is found of them kept
 * like a discovered address's until their domain is verified. Runs in the caller's transaction;
 * call it last there, since the budget's counter row stays locked until the commit. Answers how
 * many were withheld.
 */
export async function discloseListedAddresses(tx: Queryable, listed: ListedAddresses): Promise<number> {
  const owned = new Set(listed.ownedDomains ?? []);
  const candidates = listed.addresses.filter((address) => !owned.has(domainOfEmail(address.value)));
  if (candidates.length === 0) return 0;
  const [known] = await tx.$queryRaw<Array<{ verified: string[]; granted: string[] }>>`
    SELECT ARRAY(SELECT domain FROM customer_domains
                 WHERE customer_id = ${listed.customerId}::uuid AND status = 'verified'
                   AND domain = ANY(${[...new Set(candidates.map((address) => domainOfEmail(address.value)))]}::text[])) AS verified,
           ARRAY(SELECT email FROM disclosure_grants
                 WHERE partner_id = ${listed.partnerId}::uuid AND email = ANY(${candidates.map((address) => address.value)}::text[])) AS granted`;
  const verified = new Set(known!.verified);
  const granted = new Set(known!.granted);
  const needing = candidates.filter((address) => !verified.has(domainOfEmail(address.value)) && !granted.has(address.value));
  if (needing.length === 0) return 0;

  const room = await takeUpTo(tx, `${LISTED_DISCLOSURE_POLICY}:${listed.partnerId}`, needing.length, config.breachRetrieveRateLimit());
  const grants = needing.slice(0, room).map((address) => address.value);
  const withheld = needing.slice(room);
  if (grants.length > 0) {
    await tx.$executeRaw`
      INSERT INTO disclosure_grants (partner_id, email)
      SELECT ${listed.partnerId}::uuid, g.email FROM unnest(${grants.sort()}::text[]) AS g(email)
      ON CONFLICT DO NOTHING`;
  }
  if (withheld.length > 0) {
    await tx.$executeRaw`
      INSERT INTO withheld_addresses (asset_id, customer_id, domain)
      SELECT w.asset_id, ${listed.customerId}::uuid, w.domain
      FROM unnest(${withheld.map((address) => address.id)}::uuid[], ${withheld.map((address) => domainOfEmail(address.value))}::text[])
        AS w(asset_id, domain)
      ON CONFLICT DO NOTHING`;
    log.info("listed addresses withheld past the partner's lookup budget", {
      partnerId: listed.partnerId,
      customerId: listed.customerId,
      withheld: withheld.length,
    });
  }
  return withheld.length;
}

/** The listed addresses in the partner's order: `rows` (as inserted, any order) sorted as `order` lists their values. */
export function inListedOrder<T extends { value: string }>(rows: readonly T[], order: readonly string[]): T[] {
  const position = new Map(order.map((value, index) => [value, index]));
  return [...rows].sort((a, b) => (position.get(a.value) ?? Infinity) - (position.get(b.value) ?? Infinity));
}
