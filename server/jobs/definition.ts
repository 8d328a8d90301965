import { z } from "zod";
import type { Prisma } from "../db/client";
import type { Db } from "../db/client";
import { jobType, type ClaimedJob, type JobType, type JobTypeOptions } from "./queue";

/** How a job runs. */
export interface JobHandler<P> {
  /** Called only with a payload the job type's schema accepted (its parsed value). */
  run(db: Db, payload: P, job: ClaimedJob): Promise<void>;
  /** Delay before attempt `attempt + 1` (default: 10 s, doubling, at most 1 h). */
  retryDelayMs?(attempt: number): number;
}

/**
 * A kind of background job with the code that runs it. Definitions are plain values: the domain
 * exports them and the job catalogue (server/startup/job-catalogue.ts) lists them, which is what
 * the runner and the Inngest functions run. A definition is also its job type: `enqueue` and
 * the other writes of queue.ts.
 */
export interface JobDefinition<P extends Prisma.InputJsonValue> extends JobType<P>, JobHandler<P> {}

/** The handler of a job type declared apart (next to the code that requests the work). */
export function defineJob<P extends Prisma.InputJsonValue>(type: JobType<P>, handler: JobHandler<P>): JobDefinition<P>;
/** A job type and its handler in one. */
export function defineJob<P extends Prisma.InputJsonValue>(
  definition: { kind: string; payload: z.ZodType<P> } & JobTypeOptions & JobHandler<P>,
): JobDefinition<P>;
export function defineJob<P extends Prisma.InputJsonValue>(
  typeOrDefinition: JobType<P> | ({ kind: string; payload: z.ZodType<P> } & JobTypeOptions & JobHandler<P>),
  handler?: JobHandler<P>,
): JobDefinition<P> {
  if (handler) return { ...(typeOrDefinition as JobType<P>), run: handler.run, retryDelayMs: handler.retryDelayMs };
  const { kind, payload, maxAttempts, followUpWhileRunning, run, retryDelayMs } = typeOrDefinition as {
    kind: string;
    payload: z.ZodType<P>;
  } & JobTypeOptions &
    JobHandler<P>;
  return { ...jobType<P>(kind, payload, { maxAttempts, followUpWhileRunning }), run, retryDelayMs };
}

/** A payload the job type's schema refuses: the job fails for good, its handler never runs. */
export class MalformedJobPayloadError extends Error {
  constructor(kind: string, error: z.ZodError) {
    super(`malformed ${kind} payload: ${z.prettifyError(error).replaceAll("\n", " ")}`);
    this.name = "MalformedJobPayloadError";
  }
}

/** The payload as the job type's schema parses it, or a MalformedJobPayloadError. Both drivers call it. */
export function parseJobPayload<P>(type: { readonly kind: string; readonly payload: z.ZodType<P> }, payload: unknown): P {
  const parsed = type.payload.safeParse(payload);
  if (!parsed.success) throw new MalformedJobPayloadError(type.kind, parsed.error);
  return parsed.data;
}

export function defaultRetryDelayMs(attempt: number): number {
  return Math.min(10_000 * 2 ** Math.max(0, attempt - 1), 3_600_000);
}
