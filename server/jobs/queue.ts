import type { z } from "zod";
import { Prisma, type Db, type Queryable } from "../db/client";

export interface ClaimedJob {
  id: string;
  kind: string;
  payload: unknown;
  attempts: number;
  maxAttempts: number;
}

const DEFAULT_MAX_ATTEMPTS = 5;

export interface EnqueueOptions {
  runAt?: Date;
  /** While a job with this key is pending or running, enqueuing another is a no-op. */
  dedupeKey?: string;
}

export interface JobEntry<P> extends EnqueueOptions {
  payload: P;
}

/**
 * A kind of job as the code that asks for it sees it: the kind stored in the row, the payload's
 * schema (checked by the worker before any handler runs: worker.ts), the attempts. Every job row is written through one of these: this module holds all the
 * SQL that inserts into jobs. Declared with `jobType` next to the code that requests the work
 * (so requesting it does not import the code that does it), or by `defineJob` (definition.ts).
 * Call the enqueue methods inside the transaction of the change that calls for the work, so the
 * work is recorded exactly when the change is; wake the workers after the commit (wake.ts).
 */
export interface JobType<P extends Prisma.InputJsonValue> {
  readonly kind: string;
  /** The one schema of this kind's payload; a stored payload it refuses fails the job without running it. */
  readonly payload: z.ZodType<P>;
  readonly maxAttempts: number;
  /** Queues one job. Returns its id, or undefined when a job with the same dedupeKey is already queued. */
  enqueue(db: Queryable, payload: P, options?: EnqueueOptions): Promise<string | undefined>;
  /**
   * Queues many in one statement (a fan-out's page); jobs whose dedupeKey is already queued are
   * left out. Returns how many were queued.
   */
  enqueueMany(db: Queryable, jobs: readonly JobEntry<P>[]): Promise<number>;
  /**
   * The INSERT of one job as SQL text and $1... parameters, for a transaction that Prisma does not
   * run (the accounts import's, server/db/bulk-write.ts).
   */
  insertStatement(payload: P, options?: EnqueueOptions): { sql: string; params: unknown[] };
  /**
   * An INSERT ... SELECT that queues one job per row of `rows`: a SELECT of `payload` (jsonb) and
   * `dedupe_key` (text or NULL), which may read the CTEs of the statement the INSERT is part of
   * (as a CTE of its own, or as the statement). The payload is built in SQL, so keeping it to the
   * payload type is the caller's part. A row whose dedupe_key is already queued is left out.
   */
  insertSelected(rows: Prisma.Sql): Prisma.Sql;
}

export function jobType<P extends Prisma.InputJsonValue>(
  kind: string,
  payload: z.ZodType<P>,
  { maxAttempts = DEFAULT_MAX_ATTEMPTS } = {},
): JobType<P> {
  const insertStatement = (payload: P, options: EnqueueOptions = {}) => ({
    sql: `INSERT INTO jobs (kind, payload, run_at, dedupe_key, max_attempts, updated_at)
          VALUES ($1, $2::jsonb, $3::timestamptz, $4, $5, now())
          ON CONFLICT (dedupe_key) DO NOTHING`,
    params: [kind, JSON.stringify(payload), (options.runAt ?? new Date()).toISOString(), options.dedupeKey ?? null, maxAttempts],
  });
  return {
    kind,
    payload,
    maxAttempts,
    insertStatement,
    async enqueue(db, payload, options) {
      const { sql, params } = insertStatement(payload, options);
      const rows = await db.$queryRawUnsafe<Array<{ id: string }>>(`${sql} RETURNING id::text`, ...params);
      return rows[0]?.id;
    },
    async enqueueMany(db, jobs) {
      if (jobs.length === 0) return 0;
      const rows = jobs.map((job) => ({
        payload: job.payload,
        run_at: (job.runAt ?? new Date()).toISOString(),
        dedupe_key: job.dedupeKey ?? null,
      }));
      return db.$executeRaw`
        INSERT INTO jobs (kind, payload, run_at, dedupe_key, max_attempts, updated_at)
        SELECT ${kind}, payload, run_at, dedupe_key, ${maxAttempts}::int, now()
        FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS job(payload jsonb, run_at timestamptz, dedupe_key text)
        ON CONFLICT (dedupe_key) DO NOTHING`;
    },
    insertSelected(rows) {
      return Prisma.sql`
        INSERT INTO jobs (kind, payload, dedupe_key, max_attempts, updated_at)
        SELECT ${kind}, selected.payload, selected.dedupe_key, ${maxAttempts}::int, now() FROM (${rows}) AS selected
        ON CONFLICT (dedupe_key) DO NOTHING`;
    },
  };
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

/**
 * Records a failed attempt: retried after `retryDelayMs`, or failed for good after maxAttempts
 * (or at once when `final`: a malformed payload, which no retry would mend).
 */
export async function failJob(
  db: Db,
  job: ClaimedJob,
  error: unknown,
  retryDelayMs: number,
  { final = false } = {},
): Promise<"retrying" | "failed"> {
  const message = (error instanceof Error ? error.message : String(error)).slice(0, 2000);
  if (final || job.attempts >= job.maxAttempts) {
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
