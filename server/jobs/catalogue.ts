import type { z } from "zod";
import type { JobDefinition } from "./definition";
import type { Schedule } from "./schedules";

/** A definition of any payload, as the catalogue holds it (the worker hands it what its schema parsed). */
export type AnyJobDefinition = Omit<JobDefinition<never>, "payload"> & { readonly payload: z.ZodType };

/**
 * The jobs and schedules one process runs: the in-process runner and the Inngest functions take
 * one. A worker claims only the kinds of its catalogue, so during a rolling deploy an old process
 * leaves new kinds alone. The service's own is server/startup/job-catalogue.ts.
 */
export interface JobCatalogue {
  readonly jobs: readonly AnyJobDefinition[];
  readonly schedules: readonly Schedule[];
  readonly kinds: string[];
  definition(kind: string): AnyJobDefinition | undefined;
}

/** Refuses a kind or schedule listed twice, and a schedule whose job is not listed. */
export function createJobCatalogue({
  jobs,
  schedules,
}: {
  jobs: readonly AnyJobDefinition[];
  schedules: readonly Schedule[];
}): JobCatalogue {
  const byKind = new Map<string, AnyJobDefinition>();
  for (const job of jobs) {
    if (byKind.has(job.kind)) throw new Error(`job kind ${job.kind} is listed twice`);
    byKind.set(job.kind, job);
  }
  const names = new Set<string>();
  for (const schedule of schedules) {
    if (names.has(schedule.name)) throw new Error(`schedule ${schedule.name} is listed twice`);
    names.add(schedule.name);
    if (schedule.jobKind !== undefined && !byKind.has(schedule.jobKind)) {
      throw new Error(`schedule ${schedule.name} queues ${schedule.jobKind}, which is not in the catalogue`);
    }
  }
  return { jobs, schedules, kinds: [...byKind.keys()], definition: (kind) => byKind.get(kind) };
}
