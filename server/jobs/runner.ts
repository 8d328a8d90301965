import type { Db } from "../db/client";
import { log } from "../log";
import type { JobCatalogue } from "./catalogue";
import { nextJobDueAt } from "./queue";
import { Sleeper } from "./sleeper";
import { runDueSchedules } from "./schedules";
import { runDueJobs } from "./worker";

export interface InProcessRunner {
  wake(): void;
  /**
   * Stops claiming: jobs already running finish, claimed ones not yet started go back to the
   * queue. Resolves when the loop has ended.
   */
  stop(): Promise<void>;
}

/**
 * The default driver of background work (no Inngest configured): one loop in the server
 * process that runs the catalogue's due schedules and claims its due jobs, sleeping until the
 * next job is due, `pollMs` at the most, or until woken.
 */
export function startInProcessRunner(
  db: Db,
  catalogue: JobCatalogue,
  { pollMs = 2_000, scheduleEveryMs = 30_000, concurrency = 4 } = {},
): InProcessRunner {
  let stopped = false;
  const sleeper = new Sleeper();
  let lastScheduleCheck = 0;

  const loop = (async () => {
    while (!stopped) {
      try {
        if (Date.now() - lastScheduleCheck >= scheduleEveryMs) {
          lastScheduleCheck = Date.now();
          const started = await runDueSchedules(db, catalogue.schedules);
          if (started.length > 0) log.info("schedules started", { schedules: started });
        }
        if ((await runDueJobs(db, catalogue, { concurrency, stopping: () => stopped })) > 0) continue;
        const dueAt = await nextJobDueAt(db, catalogue.kinds);
        const untilDue = dueAt ? Math.max(0, dueAt.getTime() - Date.now()) : pollMs;
        if (!stopped) await sleeper.sleep(Math.min(pollMs, untilDue + 5));
      } catch (error) {
        if (stopped) break;
        log.error("background runner iteration failed", { error });
        await sleeper.sleep(pollMs);
      }
    }
  })();

  return {
    wake: () => sleeper.wake(),
    async stop() {
      stopped = true;
      sleeper.wake();
      await loop;
    },
  };
}
