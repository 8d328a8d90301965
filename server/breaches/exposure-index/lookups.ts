import type { Db, Queryable } from "../../db/client";
import { readRows } from "../../db/direct-read";
import { AppError, notFound } from "../../errors";
import type { LocaleCode } from "../../i18n/locales";
import { metrics } from "../../metrics/registry";
import { domainOfEmail } from "../../email-address";
import { consumeRateLimit, rateLimitHeaders, type RateLimitDecision } from "../../rate-limit";
import { breachFields, byBreachDateDesc, catalogueBreachRecord, emailBreachEntry } from "../catalogue/records";
import { configuredBreachSource } from "./sources/configured";
import type { BreachSource } from "./sources/source";

export const TOO_MANY_REQUESTS = "Too many requests";

/** The rate-limit policies of the two address lookups, each counted per API key per minute (docs/breaches.md). */
export const BREACH_CHECK_POLICY = "breach-check";
export const BREACH_RETRIEVE_POLICY = "breach-retrieve";

/** A lookup's result with the caller's rate-limit state after it. */
export interface Limited<T> {
  result: T;
  rateLimit: RateLimitDecision;
}

/** Counts one call against the policy's per-minute budget of the API key. */
export function countLookup(db: Db, policy: string, apiKeyId: string, limitPerMinute: number): Promise<RateLimitDecision> {
  return consumeRateLimit(db, `${policy}:${apiKeyId}`, limitPerMinute);
}

/** 429 with the RateLimit fields and Retry-After when the call is over the limit. */
export function refuseOverLimit(policy: string, decision: RateLimitDecision): void {
  if (!decision.allowed) throw new AppError("RATE_LIMITED", TOO_MANY_REQUESTS, rateLimitHeaders(policy, decision));
}

/**
 * Resolved flags of the partner's instances of these breaches that expose the address: a
 * breach counts as resolved when every such instance is. Breaches without one are absent.
 */
async function partnerResolution(db: Queryable, partnerId: string, email: string, breachIds: string[]): Promise<Map<string, boolean>> {
  if (breachIds.length === 0) return new Map();
  const rows = await db.$queryRaw<Array<{ breach_id: string; resolved: boolean }>>`
    SELECT cb.breach_id::text, bool_and(cb.resolved) AS resolved
    FROM customer_breaches cb JOIN customers c ON c.id = cb.customer_id
    WHERE cb.breach_id = ANY(${breachIds}::uuid[]) AND c.partner_id = ${partnerId}::uuid AND ${email} = ANY(cb.emails)
    GROUP BY cb.breach_id`;
  return new Map(rows.map((row) => [row.breach_id, row.resolved]));
}

/** The breaches exposing the address, each once, with whether it is sensitive. */
async function breachesOf(db: Db, email: string, source: BreachSource): Promise<Map<string, boolean>> {
  const breaches = new Map<string, boolean>();
  for (const exposure of await source.exposuresOfEmails(db, [email])) breaches.set(exposure.breachId, exposure.sensitive);
  return breaches;
}

/**
 * Whether the address is at a domain verified for one of the partner's customers that monitors
 * the domain and is not offboarded (docs/domains.md): only then may a sensitive breach of it be
 * shown, under either domain policy. One probe of the customer_domains (domain) index.
 */
async function verifiedForPartner(db: Db, partnerId: string, email: string): Promise<boolean> {
  const rows = await readRows<{ verified: boolean }>(
    db,
    `SELECT EXISTS (
       SELECT 1 FROM customer_domains cd
       JOIN customers c ON c.id = cd.customer_id
       JOIN monitored_assets a ON a.customer_id = cd.customer_id AND a.kind = 'domain' AND a.value = cd.domain
       WHERE cd.domain = $1 AND cd.status = 'verified' AND c.partner_id = $2::uuid AND c.status <> 'inactive'
     ) AS verified`,
    [domainOfEmail(email), partnerId],
    { preparedAs: "verified-for-partner" },
  );
  return rows[0]?.verified === true;
}

/**
 * The breaches the partner may see for the address: sensitive ones only when the address is at a
 * domain verified for one of its customers, as HIBP shows them only to a verified owner
 * (docs/breaches.md). The ownership probe runs only when a sensitive breach is among them.
 */
async function visibleBreachIds(db: Db, partnerId: string, email: string, breaches: Map<string, boolean>): Promise<string[]> {
  const ids = [...breaches.keys()];
  if (!ids.some((id) => breaches.get(id)) || (await verifiedForPartner(db, partnerId, email))) return ids;
  return ids.filter((id) => !breaches.get(id));
}

/**
 * breach/retrieve: every breach that exposes the (normalized) address, newest first, with
 * texts in the locale; resolvedStatus is the partner's own flag for that address and breach.
 * Sensitive breaches only for an address at a domain verified for one of the partner's customers.
 * Each call counts against the API key's per-minute limit first.
 */
export async function retrieveBreaches(
  db: Db,
  caller: { partnerId: string; apiKeyId: string },
  email: string,
  locale: LocaleCode,
  { limitPerMinute, source = configuredBreachSource() }: { limitPerMinute: number; source?: BreachSource },
): Promise<Limited<ReturnType<typeof emailBreachEntry>[]>> {
  const rateLimit = await countLookup(db, BREACH_RETRIEVE_POLICY, caller.apiKeyId, limitPerMinute);
  refuseOverLimit(BREACH_RETRIEVE_POLICY, rateLimit);
  const breachIds = await visibleBreachIds(db, caller.partnerId, email, await breachesOf(db, email, source));
  if (breachIds.length === 0) return { result: [], rateLimit };
  const [breaches, resolution] = await Promise.all([
    db.breach.findMany({ where: { id: { in: breachIds } }, select: breachFields }),
    partnerResolution(db, caller.partnerId, email, breachIds),
  ]);
  const result = breaches.sort(byBreachDateDesc).map((breach) => emailBreachEntry(breach, locale, resolution.get(breach.id) ?? false));
  return { result, rateLimit };
}

/**
 * breach/check: whether the address appears in a breach; with `resolved`, only in breaches
 * whose partner flag for the address is that (no instance counts as unresolved). Sensitive
 * breaches count only for an address at a domain verified for one of the partner's customers. Each call counts against
 * the API key's per-minute limit first.
 */
export async function checkBreach(
  db: Db,
  caller: { partnerId: string; apiKeyId: string },
  input: { email: string; resolved?: boolean },
  { limitPerMinute, source = configuredBreachSource() }: { limitPerMinute: number; source?: BreachSource },
): Promise<Limited<boolean>> {
  const counting = countLookup(db, BREACH_CHECK_POLICY, caller.apiKeyId, limitPerMinute);
  // A local lookup runs beside the count (one database round trip less on a hot path) and is
  // dropped over the limit; a remote source is only asked once the call is allowed.
  const [rateLimit, localBreaches] = await Promise.all([counting, source.remote ? undefined : breachesOf(db, input.email, source)]);
  if (!rateLimit.allowed) metrics().breachCheckRateLimited.inc();
  refuseOverLimit(BREACH_CHECK_POLICY, rateLimit);
  const breachIds = await visibleBreachIds(db, caller.partnerId, input.email, localBreaches ?? (await breachesOf(db, input.email, source)));
  if (input.resolved === undefined || breachIds.length === 0) return { result: breachIds.length > 0, rateLimit };
  const resolution = await partnerResolution(db, caller.partnerId, input.email, breachIds);
  return { result: breachIds.some((id) => (resolution.get(id) ?? false) === input.resolved), rateLimit };
}

export const BREACH_NOT_FOUND = "Breach not found";

/** GET breach: one catalogue breach by name (any case, compared literally) or by uuid, with texts in the locale. */
export async function getCatalogueBreach(db: Db, by: { name: string } | { uuid: string }, locale: LocaleCode) {
  const id =
    "uuid" in by
      ? by.uuid
      : (await db.$queryRaw<Array<{ id: string }>>`SELECT id::text FROM breaches WHERE lower(name) = lower(${by.name}) LIMIT 1`)[0]?.id;
  const breach = id ? await db.breach.findUnique({ where: { id }, select: breachFields }) : null;
  if (!breach) throw notFound(BREACH_NOT_FOUND);
  return catalogueBreachRecord(breach, locale);
}
