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
  /**
   * While a job with this key is pending, enqueuing another joins it (a no-op). While it runs,
   * also a no-op, unless the job type has `followUpWhileRunning`: then one follow-up runs after it.
   */
  dedupeKey?: string;
}

export interface JobTypeOptions {
  maxAttempts?: number;
  /**
   * For a job whose input can change while it runs (a customer's assets for its scan): a request
   * with the dedupe key of a running job is not dropped but queues one follow-up job, with the
   * last such request's payload and the same key, when the running one ends (succeeded, or failed
   * for good). However many requests come during one run, there is one follow-up; a claim clears
   * the request, since the run it starts reads the input afresh. Requests while the job is pending
   * join it, as without the option; they also lock its row until their transaction commits, so it
   * is not claimed before the change that asked for it is visible. Leave it off for work that must
   * run once per key (schedules' slots, one message's send).
   */
  followUpWhileRunning?: boolean;
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
  readonly followUpWhileRunning: boolean;
  /**
   * Queues one job. Returns its id, or undefined when a job with the same dedupeKey is already
   * queued (pending, or running: then perhaps recorded as its follow-up).
   */
  enqueue(db: Queryable, payload: P, options?: EnqueueOptions): Promise<string | undefined>;
  /**
   * Queues many in one statement (a fan-out's page); jobs whose dedupeKey is already queued are
   * left out (or recorded as follow-ups). Returns how many were queued or recorded.
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
   * payload type is the caller's part. A row whose dedupe_key is already queued is left out (or
   * recorded as a follow-up).
   */
  insertSelected(rows: Prisma.Sql): Prisma.Sql;
}

/**
 * What an insert does when a job with its dedupe key is queued. With follow-ups, DO UPDATE ...
 * WHERE records the request on a running job and locks a pending one without changing it.
 */
function onDedupeConflict(followUpWhileRunning: boolean): string {
  return followUpWhileRunning
    ? `ON CONFLICT (dedupe_key) DO UPDATE SET follow_up_payload = EXCLUDED.payload, updated_at = now()
       WHERE jobs.status = 'running'`
    : "ON CONFLICT (dedupe_key) DO NOTHING";
}

export function jobType<P extends Prisma.InputJsonValue>(
  kind: string,
  payload: z.ZodType<P>,
  { maxAttempts = DEFAULT_MAX_ATTEMPTS, followUpWhileRunning = false }: JobTypeOptions = {},
): JobType<P> {
  const onConflict = onDedupeConflict(followUpWhileRunning);
  const insertStatement = (payload: P, options: EnqueueOptions = {}) => ({
    sql: `INSERT INTO jobs (kind, payload, run_at, dedupe_key, max_attempts, updated_at)
          VALUES ($1, $2::jsonb, $3::timestamptz, $4, $5, now())
          ${onConflict}`,
    params: [kind, JSON.stringify(payload), (options.runAt ?? new Date()).toISOString(), options.dedupeKey ?? null, maxAttempts],
  });
  return {
    kind,
    payload,
    maxAttempts,
    followUpWhileRunning,
    insertStatement,
    async enqueue(db, payload, options) {
      const { sql, params } = insertStatement(payload, options);
      // A new row has no follow-up; a row the conflict updated has one.
      const rows = await db.$queryRawUnsafe<Array<{ id: string; queued: boolean }>>(
        `${sql} RETURNING id::text, follow_up_payload IS NULL AS queued`,
        ...params,
      );
      return rows[0]?.queued ? rows[0].id : undefined;
    },
    async enqueueMany(db, jobs) {
      // DO UPDATE may not meet one row twice in a statement: the first of each key, as DO NOTHING keeps.
      if (followUpWhileRunning) jobs = firstOfEachKey(jobs);
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
        ${Prisma.raw(onConflict)}`;
    },
    insertSelected(rows) {
      const selected = followUpWhileRunning
        ? Prisma.sql`SELECT DISTINCT ON (coalesce(dedupe_key, gen_random_uuid()::text)) payload, dedupe_key FROM (${rows}) AS requested`
        : rows;
      return Prisma.sql`
        INSERT INTO jobs (kind, payload, dedupe_key, max_attempts, updated_at)
        SELECT ${kind}, selected.payload, selected.dedupe_key, ${maxAttempts}::int, now() FROM (${selected}) AS selected
        ${Prisma.raw(onConflict)}`;
    },
  };
}

function firstOfEachKey<E extends EnqueueOptions>(jobs: readonly E[]): E[] {
  const keys = new Set<string>();
  return jobs.filter((job) => job.dedupeKey === undefined || (!keys.has(job.dedupeKey) && keys.add(job.dedupeKey)));
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
    UPDATE jobs SET status = 'running', attempts = attempts + 1, follow_up_payload = NULL,
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
  await finishJob(db, id, "succeeded", null);
}

/**
 * Ends a job for good, giving up its dedupe key, and queues the follow-up a request made while it
 * ran recorded (followUpWhileRunning), with that key, in the same statement. FOR UPDATE reads the
 * row as the last request committed it (a request still in its transaction is waited for).
 */
async function finishJob(db: Db, id: string, status: "succeeded" | "failed", lastError: string | null): Promise<void> {
  await db.$executeRaw`
    WITH finished AS (
      UPDATE jobs SET status = ${status}::job_status, finished_at = now(), lease_until = NULL, dedupe_key = NULL,
                      follow_up_payload = NULL, last_error = ${lastError}, updated_at = now()
      FROM (SELECT id, dedupe_key, follow_up_payload FROM jobs WHERE id = ${id}::uuid FOR UPDATE) AS before
      WHERE jobs.id = before.id
      RETURNING jobs.kind, jobs.max_attempts, before.dedupe_key, before.follow_up_payload)
    INSERT INTO jobs (kind, payload, dedupe_key, max_attempts, updated_at)
    SELECT kind, follow_up_payload, dedupe_key, max_attempts, now() FROM finished WHERE follow_up_payload IS NOT NULL
    ON CONFLICT (dedupe_key) DO NOTHING`;
}

/** Hands claimed jobs that were never started back to the queue, as they were before the claim. */
export async function releaseJobs(db: Db, jobs: readonly ClaimedJob[]): Promise<void> {
  await db.$executeRaw`
    UPDATE jobs SET status = 'pending', attempts = attempts - 1, lease_until = NULL, follow_up_payload = NULL, updated_at = now()
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
    await finishJob(db, job.id, "failed", message);
    return "failed";
  }
  // The retry reads the input afresh: a follow-up asked for during this attempt is part of it.
  await db.$executeRaw`
    UPDATE jobs SET status = 'pending', lease_until = NULL, follow_up_payload = NULL, last_error = ${message},
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
