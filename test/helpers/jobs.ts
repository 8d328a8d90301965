import { vi } from "vitest";
import type { Db } from "../../server/db/client";
import { runDueJobs } from "../../server/jobs/worker";
import { jobCatalogue } from "../../server/startup/job-catalogue";

/** Runs the service's due jobs round after round (a scan queues alerts, which queue sends) until none is due. */
export async function runJobsUntilIdle(db: Db, maxRounds = 20): Promise<number> {
  let ran = 0;
  for (let round = 0; round < maxRounds; round++) {
    const count = await runDueJobs(db, jobCatalogue);
    if (count === 0) return ran;
    ran += count;
  }
  throw new Error(`jobs still due after ${maxRounds} rounds`);
}

/** Makes the jobs waiting for a retry due now (instead of waiting out their backoff). */
export async function makeWaitingJobsDue(db: Db): Promise<void> {
  await db.$executeRaw`UPDATE jobs SET run_at = now() WHERE status = 'pending'`;
}

/** Runs `work` with stderr muted: failed job attempts log warnings that would bury the results. */
export async function quietly<T>(work: () => Promise<T>): Promise<T> {
  const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
  try {
    return await work();
  } finally {
    stderr.mockRestore();
  }
}
