import { Prisma, type Db, type Queryable } from "./db/client";
import { perDatabase } from "./db/per-database";

export interface RateLimitDecision {
  allowed: boolean;
  /** Whole seconds until the window ends (for Retry-After). */
  retryAfterSeconds: number;
  /** The calls allowed per window, and the window's length. */
  limit: number;
  windowSeconds: number;
  /**
   * Calls left in this window after this one. Exact below 200 calls per window; above, it also
   * counts this process's unspent lease, but not other processes' (rateLimitLeaseSize).
   */
  remaining: number;
}

/**
 * The IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers, structured fields) for a
 * decision under the named policy, with Retry-After when the call was refused (docs/api.md,
 * "Rate limits").
 */
export function rateLimitHeaders(policy: string, decision: RateLimitDecision): Record<string, string> {
  return {
    "RateLimit-Policy": `"${policy}";q=${decision.limit};w=${decision.windowSeconds}`,
    RateLimit: `"${policy}";r=${decision.remaining};t=${decision.retryAfterSeconds}`,
    ...(decision.allowed ? {} : { "Retry-After": String(decision.retryAfterSeconds) }),
  };
}

/** At most this share of a window's allowance is taken by one process at a time (see rateLimitLeaseSize). */
const LEASE_SHARE = 100;
const MAX_LEASE = 100;
const MAX_TRACKED_KEYS = 10_000;

/**
 * How many calls a process takes from the shared counter at once: 1 below 200 calls per window
 * (every call counts in the database, exact), then 1 % of the limit, at most 100. A process may so
 * hold up to 1 % of a window's allowance unused that other processes cannot spend: the limit can
 * be reached that much early, never late.
 */
export function rateLimitLeaseSize(limit: number): number {
  return Math.max(1, Math.min(MAX_LEASE, Math.floor(limit / LEASE_SHARE)));
}

interface Lease {
  remaining: number;
  /** What the shared counter had left when the lease was taken. */
  leftInDatabase: number;
  /** This process's clock when the database's window ends (the leased calls expire with it). */
  windowEndsAt: number;
  /** The query taking the next lease, shared by the calls that wait for it. */
  refill?: Promise<RateLimitDecision>;
}

/**
 * A fixed-window counter in the database, shared by every process: `limit` calls per key per
 * window. A process takes calls from it in leases (rateLimitLeaseSize) with one atomic upsert and
 * answers from the lease in memory until it is spent or the window ends, so a busy key costs one
 * query per lease rather than per call. The upsert turns synchronous_commit off for its own
 * transaction: a crash may lose a counter's last increments, and no call waits for a WAL flush.
 */
export async function consumeRateLimit(db: Queryable, key: string, limit: number, windowSeconds = 60): Promise<RateLimitDecision> {
  const leaseSize = rateLimitLeaseSize(limit);
  if (leaseSize === 1) return takeFromCounter(db, key, limit, windowSeconds, 1).then(({ decision }) => decision);

  const leases = perDatabase(db as Db, "exposure-monitor.rate-limit.leases", () => new Map<string, Lease>());
  const leaseKey = `${key}\u0000${limit}\u0000${windowSeconds}`;
  for (;;) {
    const lease = leases.get(leaseKey);
    const now = Date.now();
    if (lease && lease.windowEndsAt > now && lease.remaining > 0) {
      lease.remaining--;
      return {
        allowed: true,
        retryAfterSeconds: secondsLeft(lease.windowEndsAt - now, windowSeconds),
        limit,
        windowSeconds,
        remaining: lease.leftInDatabase + lease.remaining,
      };
    }
    if (lease?.refill) {
      await lease.refill;
      continue;
    }
    const pending: Lease = { remaining: 0, leftInDatabase: 0, windowEndsAt: 0 };
    const refill = takeFromCounter(db, key, limit, windowSeconds, leaseSize).then(
      ({ decision, granted, windowEndsAt, leftInDatabase }) => {
        // This call takes one of the granted calls; the rest wait in memory for the next ones.
        pending.remaining = Math.max(0, granted - 1);
        pending.leftInDatabase = leftInDatabase;
        pending.windowEndsAt = windowEndsAt;
        pending.refill = undefined;
        return decision;
      },
      (error: unknown) => {
        if (leases.get(leaseKey) === pending) leases.delete(leaseKey);
        throw error;
      },
    );
    pending.refill = refill;
    if (leases.size >= MAX_TRACKED_KEYS) pruneEnded(leases, now);
    leases.set(leaseKey, pending);
    return refill;
  }
}

/**
 * The window rule every counter here shares: adds `take` (a query of one row and column) to the
 * key's count, starting the window anew when the last one has ended.
 */
function addToCounter(key: string, windowSeconds: number, take: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`
    INSERT INTO rate_limit_counters AS c (key, window_start, count)
    SELECT ${key}, now(), t.take FROM (${take}) AS t(take)
    ON CONFLICT (key) DO UPDATE SET
      window_start = CASE WHEN c.window_start <= now() - make_interval(secs => ${windowSeconds}) THEN now() ELSE c.window_start END,
      count = CASE WHEN c.window_start <= now() - make_interval(secs => ${windowSeconds}) THEN EXCLUDED.count ELSE c.count + EXCLUDED.count END`;
}

/** Turns synchronous_commit off for the statement's own transaction: a crash may lose the count's last increments. */
const WITHOUT_FLUSH = Prisma.sql`(SELECT set_config('synchronous_commit', 'off', true)) AS without_flush`;

/** Adds `take` calls to the key's counter in the current window; `granted` of them fit within the limit. */
async function takeFromCounter(db: Queryable, key: string, limit: number, windowSeconds: number, take: number) {
  const rows = await db.$queryRaw<Array<{ count: number; window_left_ms: number }>>`
    ${addToCounter(key, windowSeconds, Prisma.sql`SELECT ${take}::int FROM ${WITHOUT_FLUSH}`)}
    RETURNING count,
      greatest(0, extract(epoch FROM c.window_start + make_interval(secs => ${windowSeconds}) - now()) * 1000)::float8 AS window_left_ms`;
  const row = rows[0]!;
  const granted = Math.max(0, Math.min(take, limit - (row.count - take)));
  const leftInDatabase = Math.max(0, limit - row.count);
  const decision: RateLimitDecision = {
    allowed: granted > 0,
    retryAfterSeconds: secondsLeft(row.window_left_ms, windowSeconds),
    limit,
    windowSeconds,
    remaining: leftInDatabase + Math.max(0, granted - 1),
  };
  return { count: row.count, granted, leftInDatabase, windowEndsAt: Date.now() + row.window_left_ms, decision };
}

/**
 * Whole seconds left in a window, 1 to its length: the stored window start is rounded to the
 * millisecond, so a new window can seem a fraction of a millisecond longer than it is.
 */
function secondsLeft(ms: number, windowSeconds: number): number {
  return Math.min(windowSeconds, Math.max(1, Math.ceil(ms / 1000)));
}

function pruneEnded(leases: Map<string, Lease>, now: number): void {
  for (const [key, lease] of leases) if (!lease.refill && lease.windowEndsAt <= now) leases.delete(key);
}

/**
 * Takes one call from the key's window (`limit` per window) for each of `items` that
 * `alreadyCovered` (a condition on `item.value`, e.g. a grant recorded before) does not exclude,
 * all in one statement, and answers those items in their order with how many of them fit
 * (`room`). Unlike consumeRateLimit it can run in the caller's transaction and be flushed with
 * it: what it grants is then recorded together with the change it allows, a change rolled back
 * spends nothing, and the counter's row stays locked until that transaction ends.
 */
export async function takeUpTo(
  db: Queryable,
  key: string,
  items: readonly string[],
  limit: number,
  {
    alreadyCovered = Prisma.sql`false`,
    windowSeconds = 60,
    ownTransaction = false,
  }: { alreadyCovered?: Prisma.Sql; windowSeconds?: number; ownTransaction?: boolean } = {},
): Promise<{ needing: string[]; room: number }> {
  if (items.length === 0) return { needing: [], room: 0 };
  // Alone in its transaction (ownTransaction), it need not wait for a WAL flush, as consumeRateLimit does not.
  const withoutFlush = ownTransaction ? Prisma.sql`, ${WITHOUT_FLUSH}` : Prisma.empty;
  const rows = await db.$queryRaw<Array<{ value: string; count: number }>>`
    WITH needing AS (
      SELECT item.value, item.ord FROM unnest(${[...items]}::text[]) WITH ORDINALITY AS item(value, ord) WHERE NOT (${alreadyCovered})
    ), taken AS (
      ${addToCounter(key, windowSeconds, Prisma.sql`SELECT n.wanted FROM (SELECT count(*)::int AS wanted FROM needing) AS n ${withoutFlush} WHERE n.wanted > 0`)}
      RETURNING c.count
    )
    SELECT needing.value, (SELECT count FROM taken) AS count FROM needing ORDER BY needing.ord`;
  if (rows.length === 0) return { needing: [], room: 0 };
  const wanted = rows.length;
  return { needing: rows.map((row) => row.value), room: Math.max(0, Math.min(wanted, limit - (rows[0]!.count - wanted))) };
}

/** Counts one event (e.g. a failed sign-in) under `key` in the current window; answers the window's count with it. */
export async function countEvent(db: Queryable, key: string, windowSeconds: number): Promise<number> {
  return (await takeFromCounter(db, key, 1, windowSeconds, 1)).count;
}

/** The events counted under `key` in its current window (0 when its window has ended), counting nothing. */
export async function eventsInWindow(db: Queryable, key: string, windowSeconds: number): Promise<number> {
  const rows = await db.$queryRaw<Array<{ count: number }>>`
    SELECT count FROM rate_limit_counters WHERE key = ${key} AND window_start > now() - make_interval(secs => ${windowSeconds})`;
  return rows[0]?.count ?? 0;
}
