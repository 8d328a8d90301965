import type { Db } from "../db/client";
import { AppError, notFound } from "../errors";
import type { Queryable } from "../jobs/queue";
import type { LocaleCode } from "./locales";
import { metrics } from "../metrics/registry";
import { consumeRateLimit } from "../rate-limit";
import { breachFields, byBreachDateDesc, catalogueBreachRecord, emailBreachEntry } from "./records";
import { configuredBreachSource, type BreachSource } from "./sources/source";

export const TOO_MANY_REQUESTS = "Too many requests";

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

async function breachIdsOf(db: Db, email: string, source: BreachSource): Promise<string[]> {
  return [...new Set((await source.exposuresOfEmails(db, [email])).map((exposure) => exposure.breachId))];
}

/**
 * breach/retrieve: every breach that exposes the (normalized) address, newest first, with
 * texts in the locale; resolvedStatus is the partner's own flag for that address and breach.
 */
export async function retrieveBreaches(db: Db, partnerId: string, email: string, locale: LocaleCode, source = configuredBreachSource()) {
  const breachIds = await breachIdsOf(db, email, source);
  if (breachIds.length === 0) return [];
  const [breaches, resolution] = await Promise.all([
    db.breach.findMany({ where: { id: { in: breachIds } }, select: breachFields }),
    partnerResolution(db, partnerId, email, breachIds),
  ]);
  return breaches.sort(byBreachDateDesc).map((breach) => emailBreachEntry(breach, locale, resolution.get(breach.id) ?? false));
}

/**
 * breach/check: whether the address appears in a breach; with `resolved`, only in breaches
 * whose partner flag for the address is that (no instance counts as unresolved). Each call
 * counts against the API key's per-minute limit first.
 */
export async function checkBreach(
  db: Db,
  caller: { partnerId: string; apiKeyId: string },
  input: { email: string; resolved?: boolean },
  { limitPerMinute, source = configuredBreachSource() }: { limitPerMinute: number; source?: BreachSource },
): Promise<boolean> {
  const counting = consumeRateLimit(db, `breach-check:${caller.apiKeyId}`, limitPerMinute);
  // A local lookup runs beside the count (one database round trip less on a hot path) and is
  // dropped over the limit; a remote source is only asked once the call is allowed.
  const [decision, localBreachIds] = await Promise.all([counting, source.remote ? undefined : breachIdsOf(db, input.email, source)]);
  if (!decision.allowed) {
    metrics().breachCheckRateLimited.inc();
    throw new AppError("RATE_LIMITED", TOO_MANY_REQUESTS, { "Retry-After": String(decision.retryAfterSeconds) });
  }
  const breachIds = localBreachIds ?? (await breachIdsOf(db, input.email, source));
  if (input.resolved === undefined || breachIds.length === 0) return breachIds.length > 0;
  const resolution = await partnerResolution(db, caller.partnerId, input.email, breachIds);
  return breachIds.some((id) => (resolution.get(id) ?? false) === input.resolved);
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
