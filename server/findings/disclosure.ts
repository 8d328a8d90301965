import type { Queryable } from "../db/client";
import type { DomainPolicy } from "../db/generated/enums";
import { domainOfEmail } from "../email-address";

/**
 * What a customer may be shown of what scans find (docs/domains.md, "What stays hidden"). The one
 * place that decides it: scans and incremental matching write findings only through
 * recordFindings (server/findings/scanner.ts), which asks this, so what is withheld never
 * reaches the assets, breach instances, events, e-mails or portal, and is kept in
 * withheld_exposures until the domain is verified.
 */
export interface Disclosure {
  policy: DomainPolicy;
  /** The domains verified for this customer. */
  verifiedDomains: ReadonlySet<string>;
  /**
   * The customer's monitored domains that a customer of another distributor monitors too: under
   * `trusted` they are still treated as unverified, so trusting one's own partners never shows
   * them another distributor's customer's mailboxes.
   */
  contestedDomains: ReadonlySet<string>;
}

/** Whether an address discovered at this monitored domain may be revealed. */
export function revealsDiscoveriesAt(disclosure: Disclosure, domain: string): boolean {
  if (disclosure.verifiedDomains.has(domain)) return true;
  return disclosure.policy === "trusted" && !disclosure.contestedDomains.has(domain);
}

/**
 * Whether what is found of an address listed past the partner's lookup budget (withheld_addresses;
 * docs/domains.md, "Addresses a partner lists") may be revealed: at a monitored domain as a
 * discovered address there would be, elsewhere only at a verified domain.
 */
export function revealsWithheldListedAt(disclosure: Disclosure, domain: string, monitoredDomains: ReadonlySet<string>): boolean {
  return monitoredDomains.has(domain) ? revealsDiscoveriesAt(disclosure, domain) : disclosure.verifiedDomains.has(domain);
}

/**
 * Whether a sensitive or stealer-log breach of this address may be revealed: under both policies,
 * only at a verified domain.
 */
export function revealsSensitiveOf(disclosure: Pick<Disclosure, "verifiedDomains">, email: string): boolean {
  return disclosure.verifiedDomains.has(domainOfEmail(email));
}

/**
 * Of a stealer-log instance's addresses, those whose captured websites the customer's own views
 * may name now: at a domain verified for the customer (a domain that lost its verification hides
 * them again, whatever was recorded while it was verified).
 */
export async function revealedStealerLogAddresses(tx: Queryable, customerId: string, emails: readonly string[]): Promise<string[]> {
  if (emails.length === 0) return [];
  const rows = await tx.$queryRaw<Array<{ domain: string }>>`
    SELECT domain FROM customer_domains WHERE customer_id = ${customerId}::uuid AND status = 'verified'`;
  const verified = { verifiedDomains: new Set(rows.map((row) => row.domain)) };
  return emails.filter((email) => revealsSensitiveOf(verified, email));
}

/** One customer's addresses as a scan's partition reads them. */
export interface CustomerAddresses {
  /** Monitored domains. */
  domains: ReadonlySet<string>;
  /** Monitored addresses, active ones. */
  emails: readonly string[];
  /** Addresses of directory users who left: neither monitored nor discovered again. */
  inactiveEmails: readonly string[];
  /** Addresses listed past the partner's lookup budget (withheld_addresses). */
  withheldListed: readonly string[];
}

export interface AddressPartition {
  /** Monitored addresses whose findings may be shown. */
  monitored: Set<string>;
  /** Listed past the budget, and not yet revealed: monitored, but their findings withheld. */
  held: Set<string>;
  /** Found at a monitored domain, and revealed: to be added as discovered addresses. */
  discovered: string[];
  /** Found at a monitored domain, and withheld until it is verified. */
  hidden: Set<string>;
}

/** Which addresses of the exposures are shown, held, discovered or hidden (pure: no database). */
export function partitionAddresses(
  disclosure: Disclosure,
  addresses: CustomerAddresses,
  exposures: ReadonlyArray<{ email: string }>,
): AddressPartition {
  const held = new Set(
    addresses.withheldListed.filter((email) => !revealsWithheldListedAt(disclosure, domainOfEmail(email), addresses.domains)),
  );
  const monitored = new Set(addresses.emails.filter((email) => !held.has(email)));
  const inactive = new Set(addresses.inactiveEmails);
  const found = [...new Set(exposures.map((exposure) => exposure.email))].filter(
    (email) => !monitored.has(email) && !held.has(email) && !inactive.has(email) && addresses.domains.has(domainOfEmail(email)),
  );
  const discovered = found.filter((email) => revealsDiscoveriesAt(disclosure, domainOfEmail(email)));
  const hidden = new Set(found.filter((email) => !revealsDiscoveriesAt(disclosure, domainOfEmail(email))));
  return { monitored, held, discovered, hidden };
}

/** The catalogue breaches to ask verificationGatedBreachIds about: those of monitored addresses at unverified domains. */
export function gateCandidates(
  disclosure: Disclosure,
  monitored: ReadonlySet<string>,
  exposures: ReadonlyArray<{ email: string; breachId: string }>,
): string[] {
  return exposures.filter(({ email }) => monitored.has(email) && !revealsSensitiveOf(disclosure, email)).map(({ breachId }) => breachId);
}

/**
 * The exposures split into what is withheld and what is recorded (by catalogue breach), once the
 * discovered addresses are monitored (pure: the gated breaches come from verificationGatedBreachIds).
 */
export function partitionExposures<T extends { email: string; breachId: string }>(
  disclosure: Disclosure,
  addresses: Pick<AddressPartition, "monitored" | "held" | "hidden">,
  gatedBreachIds: ReadonlySet<string>,
  exposures: readonly T[],
): { withheld: T[]; emailsByBreach: Map<string, Set<string>> } {
  const { monitored, held, hidden } = addresses;
  const withheld = exposures.filter(
    ({ email, breachId }) =>
      hidden.has(email) ||
      held.has(email) ||
      (monitored.has(email) && gatedBreachIds.has(breachId) && !revealsSensitiveOf(disclosure, email)),
  );
  const withheldKeys = new Set(withheld.map(({ email, breachId }) => `${email} ${breachId}`));
  const emailsByBreach = new Map<string, Set<string>>();
  for (const { email, breachId } of exposures) {
    if (!monitored.has(email) || withheldKeys.has(`${email} ${breachId}`)) continue;
    const emails = emailsByBreach.get(breachId) ?? new Set<string>();
    emails.add(email);
    emailsByBreach.set(breachId, emails);
  }
  return { withheld, emailsByBreach };
}

/**
 * The breaches among these catalogue ids that a customer sees only at a verified domain: the
 * sensitive ones, and the stealer logs (they name the sites whose passwords malware took from a
 * person's device, which only the owner of the address should learn; docs/breaches.md).
 */
export async function verificationGatedBreachIds(tx: Queryable, breachIds: readonly string[]): Promise<Set<string>> {
  if (breachIds.length === 0) return new Set();
  const rows = await tx.$queryRaw<Array<{ id: string }>>`
    SELECT id::text FROM breaches WHERE (is_sensitive OR is_stealer_log) AND id = ANY(${[...new Set(breachIds)]}::uuid[])`;
  return new Set(rows.map((row) => row.id));
}

/** Keeps exposures customers may not see yet (idempotent: one row per customer, address and breach). */
export async function withholdExposures(
  tx: Queryable,
  exposures: ReadonlyArray<{ customerId: string; email: string; breachId: string }>,
): Promise<void> {
  if (exposures.length === 0) return;
  const sorted = [...exposures].sort(
    (a, b) => compare(a.customerId, b.customerId) || compare(a.email, b.email) || compare(a.breachId, b.breachId),
  );
  await tx.$executeRaw`
    INSERT INTO withheld_exposures (customer_id, email, breach_id, domain)
    SELECT w.customer_id, w.email, w.breach_id, substr(w.email, strpos(w.email, '@') + 1)
    FROM unnest(${sorted.map((row) => row.customerId)}::uuid[], ${sorted.map((row) => row.email)}::text[],
                ${sorted.map((row) => row.breachId)}::uuid[]) AS w(customer_id, email, breach_id)
    ON CONFLICT DO NOTHING`;
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The exposures withheld from the customer at this domain (what verifying it reveals). */
export async function withheldAtDomain(
  tx: Queryable,
  customerId: string,
  domain: string,
): Promise<Array<{ email: string; breachId: string }>> {
  return tx.$queryRaw<Array<{ email: string; breachId: string }>>`
    SELECT email, breach_id::text AS "breachId" FROM withheld_exposures
    WHERE customer_id = ${customerId}::uuid AND domain = ${domain}`;
}
