import { log } from "../log";

let waker: () => void | Promise<void> = () => undefined;

/** Set once per process by the component that drives background work (runner or Inngest). */
export function setJobWaker(wake: () => void | Promise<void>): void {
  waker = wake;
}

/**
 * Tells the workers that jobs were queued, after the transaction that queued them committed.
 * Best effort: a lost wake-up only delays the work until the next poll or sweep.
 */
export async function wakeJobWorkers(): Promise<void> {
  try {
    await waker();
  } catch (error) {
    log.warn("could not wake job workers; the next poll will pick the work up", { error });
  }
}
