import { config } from "../config";
import { Prisma, type Queryable } from "../db/client";
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
 * call it last there, since the budget's counter row stays locked until the commit (onboarding
 * reserves before its transaction instead: reserveListedDisclosures). Answers how many were withheld.
 */
export async function discloseListedAddresses(tx: Queryable, listed: ListedAddresses): Promise<number> {
  const owned = new Set(listed.ownedDomains ?? []);
  const candidates = listed.addresses.filter((address) => !owned.has(domainOfEmail(address.value)));
  if (candidates.length === 0) return 0;
  const domains = [...new Set(candidates.map((address) => domainOfEmail(address.value)))];
  const verified = new Set(
    (
      await tx.$queryRaw<Array<{ domain: string }>>`
        SELECT domain FROM customer_domains
        WHERE customer_id = ${listed.customerId}::uuid AND status = 'verified' AND domain = ANY(${domains}::text[])`
    ).map((row) => row.domain),
  );
  const unverified = candidates.filter((address) => !verified.has(domainOfEmail(address.value)));
  const decision = await reserveListedDisclosures(
    tx,
    listed.partnerId,
    unverified.map((address) => address.value),
  );
  return recordListedDisclosures(tx, { ...listed, decision });
}

/** Which of the listed addresses the partner's budget discloses and which it withholds. */
export interface ListedDecision {
  grant: string[];
  withhold: string[];
}

/**
 * The budget's part of discloseListedAddresses for addresses at domains known to be unverified
 * (a customer being onboarded has none verified): the ones granted before need nothing, the others
 * take the budget in order. Onboarding, the hot path, calls it before its transaction, so that
 * concurrent onboardings of one partner do not wait for each other's commits on the counter row;
 * a rolled-back onboarding then wastes its share (it fails closed).
 */
export async function reserveListedDisclosures(
  db: Queryable,
  partnerId: string,
  emails: readonly string[],
  { beforeTransaction = false }: { beforeTransaction?: boolean } = {},
): Promise<ListedDecision> {
  const { needing, room } = await takeUpTo(db, `${LISTED_DISCLOSURE_POLICY}:${partnerId}`, emails, config.breachRetrieveRateLimit(), {
    alreadyCovered: Prisma.sql`EXISTS (SELECT 1 FROM disclosure_grants g WHERE g.partner_id = ${partnerId}::uuid AND g.email = item.value)`,
    ownTransaction: beforeTransaction,
  });
  return { grant: needing.slice(0, room), withhold: needing.slice(room) };
}

/** Records a decision in the change's transaction: the grants, and the withheld addresses among `addresses`. Answers how many were withheld. */
export async function recordListedDisclosures(
  tx: Queryable,
  listed: Omit<ListedAddresses, "ownedDomains"> & { decision: ListedDecision },
): Promise<number> {
  const { grant, withhold } = listed.decision;
  if (grant.length > 0) {
    await tx.$executeRaw`
      INSERT INTO disclosure_grants (partner_id, email)
      SELECT ${listed.partnerId}::uuid, g.email FROM unnest(${[...grant].sort()}::text[]) AS g(email)
      ON CONFLICT DO NOTHING`;
  }
  const held = new Set(withhold);
  const withheld = listed.addresses.filter((address) => held.has(address.value));
  if (withheld.length === 0) return 0;
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
  return withheld.length;
}

/** The listed addresses in the partner's order: `rows` (as inserted, any order) sorted as `order` lists their values. */
export function inListedOrder<T extends { value: string }>(rows: readonly T[], order: readonly string[]): T[] {
  const position = new Map(order.map((value, index) => [value, index]));
  return [...rows].sort((a, b) => (position.get(a.value) ?? Infinity) - (position.get(b.value) ?? Infinity));
}
