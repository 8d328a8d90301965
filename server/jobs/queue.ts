import type { Db, Prisma, Queryable } from "../db/client";

export interface ClaimedJob {
  id: string;
  kind: string;
  payload: unknown;
  attempts: number;
  maxAttempts: number;
}

export interface NewJob {
  kind: string;
  payload?: Prisma.InputJsonValue;
  runAt?: Date;
  /** While a job with this key is pending or running, enqueuing another is a no-op. */
  dedupeKey?: string;
  maxAttempts?: number;
}

/**
 * Queues a job. Call it inside the transaction of the change that calls for the work, so the
 * work is recorded exactly when the change is; wake the workers after the commit.
 * Returns undefined when a job with the same dedupeKey is already queued.
 */
export async function enqueueJob(db: Queryable, job: NewJob): Promise<string | undefined> {
  const { sql, params } = jobInsertStatement(job);
  const rows = await db.$queryRawUnsafe<Array<{ id: string }>>(`${sql} RETURNING id::text`, ...params);
  return rows[0]?.id;
}

/**
 * The INSERT that queues a job, as SQL text and $1... parameters: enqueueJob runs it through
 * Prisma, a transaction that Prisma does not run (the accounts import's, server/db/bulk-write.ts)
 * runs it itself.
 */
export function jobInsertStatement(job: NewJob): { sql: string; params: unknown[] } {
  return {
    sql: `INSERT INTO jobs (kind, payload, run_at, dedupe_key, max_attempts, updated_at)
          VALUES ($1, $2::jsonb, $3::timestamptz, $4, $5, now())
          ON CONFLICT (dedupe_key) DO NOTHING`,
    params: [job.kind, JSON.stringify(job.payload ?? {}), (job.runAt ?? new Date()).toISOString(), job.dedupeKey ?? null, job.maxAttempts ?? 5],
  };
}

/**
 * Queues many jobs in one statement (a fan-out's page); jobs whose dedupeKey is already queued
 * are left out. Returns how many were queued.
 */
export async function enqueueJobs(db: Queryable, jobs: readonly NewJob[]): Promise<number> {
  if (jobs.length === 0) return 0;
  const rows = jobs.map((job) => ({
    kind: job.kind,
    payload: job.payload ?? {},
    run_at: (job.runAt ?? new Date()).toISOString(),
    dedupe_key: job.dedupeKey ?? null,
    max_attempts: job.maxAttempts ?? 5,
  }));
  return db.$executeRaw`
    INSERT INTO jobs (kind, payload, run_at, dedupe_key, max_attempts, updated_at)
    SELECT kind, payload, run_at, dedupe_key, max_attempts, now()
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
      AS job(kind text, payload jsonb, run_at timestamptz, dedupe_key text, max_attempts int)
    ON CONFLICT (dedupe_key) DO NOTHING`;
}

/**
 * Claims up to `limit` due jobs of the given kinds for this worker: pending ones whose time has
 * come, and running ones whose lease ran out (their process died). FOR UPDATE SKIP LOCKED lets
 * any number of workers claim side by side without taking the same job. Only kinds this
 * process can run are claimed, so a job of a kind it does not know waits for one that does.
 */
export async function claimDueJobs(
  db: Db,
  { limit, leaseMs, kinds }: { limit: number; leaseMs: number; kinds: string[] },
): Promise<ClaimedJob[]> {
  return db.$queryRaw<ClaimedJob[]>`
    UPDATE jobs SET status = 'running', attempts = attempts + 1,
                    lease_until = now() + make_interval(secs => ${leaseMs / 1000}), updated_at = now()
    WHERE id IN (
      SELECT id FROM jobs
      WHERE kind = ANY(${kinds}::text[])
        AND ((status = 'pending' AND run_at <= now()) OR (status = 'running' AND lease_until < now()))
      ORDER BY run_at
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED)
    RETURNING id::text, kind, payload, attempts, max_attempts AS "maxAttempts"`;
}

export async function completeJob(db: Db, id: string): Promise<void> {
  await db.$executeRaw`
    UPDATE jobs SET status = 'succeeded', finished_at = now(), lease_until = NULL, dedupe_key = NULL,
                    last_error = NULL, updated_at = now()
    WHERE id = ${id}::uuid`;
}

/** Hands claimed jobs that were never started back to the queue, as they were before the claim. */
export async function releaseJobs(db: Db, jobs: readonly ClaimedJob[]): Promise<void> {
  await db.$executeRaw`
    UPDATE jobs SET status = 'pending', attempts = attempts - 1, lease_until = NULL, updated_at = now()
    WHERE id = ANY(${jobs.map((job) => job.id)}::uuid[]) AND status = 'running'`;
}

/** Records a failed attempt: retried after `retryDelayMs`, or failed for good after maxAttempts. */
export async function failJob(db: Db, job: ClaimedJob, error: unknown, retryDelayMs: number): Promise<"retrying" | "failed"> {
  const message = (error instanceof Error ? error.message : String(error)).slice(0, 2000);
  if (job.attempts >= job.maxAttempts) {
    await db.$executeRaw`
      UPDATE jobs SET status = 'failed', finished_at = now(), lease_until = NULL, dedupe_key = NULL,
                      last_error = ${message}, updated_at = now()
      WHERE id = ${job.id}::uuid`;
    return "failed";
  }
  await db.$executeRaw`
    UPDATE jobs SET status = 'pending', lease_until = NULL, last_error = ${message},
                    run_at = now() + make_interval(secs => ${retryDelayMs / 1000}), updated_at = now()
    WHERE id = ${job.id}::uuid`;
  return "retrying";
}

/** When the next job of the given kinds is due (for a worker deciding how long to sleep). */
export async function nextJobDueAt(db: Db, kinds: string[]): Promise<Date | undefined> {
  const rows = await db.$queryRaw<Array<{ at: Date | null }>>`
    SELECT min(CASE WHEN status = 'pending' THEN run_at ELSE lease_until END) AS at
    FROM jobs WHERE status IN ('pending', 'running') AND kind = ANY(${kinds}::text[])`;
  return rows[0]?.at ?? undefined;
}
