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

/** Adds `take` calls to the key's counter in the current window; `granted` of them fit within the limit. */
async function takeFromCounter(db: Queryable, key: string, limit: number, windowSeconds: number, take: number) {
  const rows = await db.$queryRaw<Array<{ count: number; window_left_ms: number }>>`
    INSERT INTO rate_limit_counters AS c (key, window_start, count)
    SELECT ${key}, now(), ${take}::int FROM (SELECT set_config('synchronous_commit', 'off', true)) AS without_flush
    ON CONFLICT (key) DO UPDATE SET
      window_start = CASE WHEN c.window_start <= now() - make_interval(secs => ${windowSeconds}) THEN now() ELSE c.window_start END,
      count = CASE WHEN c.window_start <= now() - make_interval(secs => ${windowSeconds}) THEN ${take}::int ELSE c.count + ${take}::int END
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
 * Takes up to `wanted` calls at once from the key's window (`limit` per window) and answers how
 * many fit. Unlike consumeRateLimit it can run in the caller's transaction and be flushed with
 * it: what it grants is then recorded together with the change it allows, a change rolled back
 * spends nothing, and the counter's row stays locked until that transaction ends.
 */
export async function takeUpTo(
  db: Queryable,
  key: string,
  wanted: number,
  limit: number,
  { windowSeconds = 60, ownTransaction = false }: { windowSeconds?: number; ownTransaction?: boolean } = {},
): Promise<number> {
  if (wanted <= 0) return 0;
  // Alone in its transaction (ownTransaction), it need not wait for a WAL flush, as consumeRateLimit does not.
  const withoutFlush = ownTransaction
    ? Prisma.sql`, (SELECT set_config('synchronous_commit', 'off', true)) AS without_flush`
    : Prisma.empty;
  const rows = await db.$queryRaw<Array<{ count: number }>>`
    INSERT INTO rate_limit_counters AS c (key, window_start, count)
    SELECT ${key}, now(), ${wanted}::int FROM (SELECT 1) AS one ${withoutFlush}
    ON CONFLICT (key) DO UPDATE SET
      window_start = CASE WHEN c.window_start <= now() - make_interval(secs => ${windowSeconds}) THEN now() ELSE c.window_start END,
      count = CASE WHEN c.window_start <= now() - make_interval(secs => ${windowSeconds}) THEN ${wanted}::int ELSE c.count + ${wanted}::int END
    RETURNING count`;
  return Math.max(0, Math.min(wanted, limit - (rows[0]!.count - wanted)));
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
