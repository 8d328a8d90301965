import { log } from "./log";
import { processSlot } from "./process-slot";

/**
 * Graceful shutdown (docs/operations.md, "Shutdown"). The parts of the server register how they
 * stop, in one of two phases; the production server (scripts/serve.ts) runs them on SIGTERM or
 * SIGINT: first "work" (background work stops claiming and lets what is in flight finish),
 * beside its own HTTP drain, then "database" (pools and listening connections closed).
 * The steps live in a process-wide slot: Next.js loads this module once per server bundle and
 * the server script has a copy of its own, and all of them must see the same steps.
 */
export type ShutdownPhase = "work" | "database";

interface ShutdownStep {
  name: string;
  phase: ShutdownPhase;
  run(): Promise<void>;
}

const shutdownSteps = processSlot<ShutdownStep[]>("shutdown-steps");

function steps(): ShutdownStep[] {
  return shutdownSteps.getOrCreate(() => []);
}

/** Registers a step run when the process shuts down (in registration order within its phase, side by side). */
export function onShutdown(phase: ShutdownPhase, name: string, run: () => Promise<void>): void {
  steps().push({ name, phase, run });
}

/**
 * Runs the steps of a phase side by side and resolves when all have finished or `limitMs` has
 * passed, whichever is sooner; a step still running then is left (and logged), never awaited
 * further. Each step runs once: a phase is taken out of the slot when it starts.
 */
export async function runShutdownPhase(phase: ShutdownPhase, limitMs: number): Promise<void> {
  const all = steps();
  const due = all.filter((step) => step.phase === phase);
  shutdownSteps.set(all.filter((step) => step.phase !== phase));
  await Promise.all(
    due.map(async (step) => {
      let timer: NodeJS.Timeout | undefined;
      const finished = step.run().then(
        () => "done" as const,
        (error: unknown) => {
          log.error("shutdown step failed", { step: step.name, error });
          return "failed" as const;
        },
      );
      const outOfTime = new Promise<"late">((resolve) => {
        timer = setTimeout(() => resolve("late"), limitMs);
        timer.unref();
      });
      if ((await Promise.race([finished, outOfTime])) === "late") {
        log.warn("shutdown step did not finish in time; left as it is", { step: step.name, limitMs });
      }
      clearTimeout(timer);
    }),
  );
}
