import type { Queryable } from "./jobs/queue";

export interface RateLimitDecision {
  allowed: boolean;
  /** Whole seconds until the window ends (for Retry-After). */
  retryAfterSeconds: number;
}

/**
 * A fixed-window counter in the database, so every process shares it: one atomic upsert per
 * request counts it and says whether it is within `limit` for the current window. The statement
 * turns synchronous_commit off for its own transaction: a counter may lose its last increments
 * in a crash, and no request waits for a WAL flush.
 */
export async function consumeRateLimit(db: Queryable, key: string, limit: number, windowSeconds = 60): Promise<RateLimitDecision> {
  const rows = await db.$queryRaw<Array<{ count: number; retry_after: number }>>`
    INSERT INTO rate_limit_counters AS c (key, window_start, count)
    SELECT ${key}, now(), 1 FROM (SELECT set_config('synchronous_commit', 'off', true)) AS without_flush
    ON CONFLICT (key) DO UPDATE SET
      window_start = CASE WHEN c.window_start <= now() - make_interval(secs => ${windowSeconds}) THEN now() ELSE c.window_start END,
      count = CASE WHEN c.window_start <= now() - make_interval(secs => ${windowSeconds}) THEN 1 ELSE c.count + 1 END
    RETURNING count,
      greatest(1, ceil(extract(epoch FROM c.window_start + make_interval(secs => ${windowSeconds}) - now())))::int AS retry_after`;
  const row = rows[0]!;
  return { allowed: row.count <= limit, retryAfterSeconds: row.retry_after };
}
