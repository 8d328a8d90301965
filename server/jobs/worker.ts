import type { Db } from "../db/client";
import { log } from "../log";
import { claimDueJobs, completeJob, failJob, releaseJobs, type ClaimedJob } from "./queue";
import type { JobCatalogue } from "./catalogue";
import { defaultRetryDelayMs, MalformedJobPayloadError, parseJobPayload } from "./definition";
import { forEachConcurrently } from "../concurrently";

export const JOB_LEASE_MS = 5 * 60_000;

/**
 * Claims the jobs of the catalogue's kinds that are due and runs them, at most `concurrency` at a
 * time; the same code serves the in-process runner and the Inngest function. Returns how many jobs
 * it ran. `kinds` narrows the claim to some of the catalogue's kinds (benchmarks, tests). Once `stopping()` turns
 * true (the process is shutting down) no further job of the batch is started: those claimed but
 * not started go back to the queue as they were.
 */
export async function runDueJobs(
  db: Db,
  catalogue: JobCatalogue,
  {
    limit = 20,
    concurrency = 4,
    kinds = catalogue.kinds,
    stopping = () => false,
  }: { limit?: number; concurrency?: number; kinds?: string[]; stopping?: () => boolean } = {},
): Promise<number> {
  const jobs = await claimDueJobs(db, { limit, leaseMs: JOB_LEASE_MS, kinds });
  const started = await forEachConcurrently(jobs, concurrency, (job) => runJob(db, catalogue, job), { stopping });
  const unstarted = jobs.slice(started);
  if (unstarted.length > 0) await releaseJobs(db, unstarted);
  return started;
}

async function runJob(db: Db, catalogue: JobCatalogue, job: ClaimedJob): Promise<void> {
  const definition = catalogue.definition(job.kind);
  try {
    if (!definition) throw new Error(`no job definition for kind "${job.kind}"`);
    await definition.run(db, parseJobPayload(definition, job.payload) as never, job);
    await completeJob(db, job.id);
  } catch (error) {
    const delay = (definition?.retryDelayMs ?? defaultRetryDelayMs)(job.attempts);
    const outcome = await failJob(db, job, error, delay, { final: error instanceof MalformedJobPayloadError });
    log[outcome === "failed" ? "error" : "warn"]("job attempt failed", {
      jobId: job.id,
      kind: job.kind,
      attempt: job.attempts,
      outcome,
      error,
    });
  }
}
