import type { Prisma, Queryable } from "../db/client";
import type { Db } from "../db/client";
import { enqueueJob, type ClaimedJob, type NewJob } from "./queue";

export interface JobDefinition<P> {
  kind: string;
  run(db: Db, payload: P, job: ClaimedJob): Promise<void>;
  /** Delay before attempt `attempt + 1` (default: 10 s, doubling, at most 1 h). */
  retryDelayMs?(attempt: number): number;
  maxAttempts?: number;
}

const definitions = new Map<string, JobDefinition<never>>();

/**
 * Declares a kind of background job. The returned `enqueue` is what services call (inside
 * their transaction); the runner and the Inngest functions look the kind up here.
 */
export function defineJob<P extends Prisma.InputJsonValue>(definition: JobDefinition<P>) {
  if (definitions.has(definition.kind)) throw new Error(`job kind ${definition.kind} is defined twice`);
  definitions.set(definition.kind, definition as unknown as JobDefinition<never>);
  return {
    kind: definition.kind,
    enqueue: (db: Queryable, payload: P, options: Omit<NewJob, "kind" | "payload"> = {}) =>
      enqueueJob(db, { maxAttempts: definition.maxAttempts, ...options, kind: definition.kind, payload }),
  };
}

export function jobDefinition(kind: string): JobDefinition<unknown> | undefined {
  return definitions.get(kind) as JobDefinition<unknown> | undefined;
}

export function registeredJobKinds(): string[] {
  return [...definitions.keys()];
}

export function defaultRetryDelayMs(attempt: number): number {
  return Math.min(10_000 * 2 ** Math.max(0, attempt - 1), 3_600_000);
}
