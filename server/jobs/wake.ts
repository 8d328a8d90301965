import { log } from "../log";
import { processSlot } from "../process-slot";

type JobWaker = () => void | Promise<void>;

/**
 * The waker lives in a process-wide slot, as the shutdown steps do (server/shutdown.ts): the
 * composition sets it from instrumentation.ts, which Next.js compiles as an entry of its own, and
 * the route handlers that queue work hold other copies of this module.
 */
const waker = processSlot<JobWaker>("job-waker");

/**
 * Set once per process by the composition of background work (instrumentation.ts: server/startup/background.ts or inngest/driver.ts): it
 * wakes the in-process runner and webhook delivery worker, or sends Inngest the jobs-due event.
 */
export function setJobWaker(wake: JobWaker): void {
  waker.set(wake);
}

/**
 * Tells the workers that jobs were queued, after the transaction that queued them committed.
 * Best effort: a lost wake-up only delays the work until the next poll or sweep. Without a waker
 * (scripts, tests) it does nothing.
 */
export async function wakeJobWorkers(): Promise<void> {
  try {
    await waker.get()?.();
  } catch (error) {
    log.warn("could not wake job workers; the next poll will pick the work up", { error });
  }
}
