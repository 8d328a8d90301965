import type { Db } from "../server/db/client";
import type { JobCatalogue } from "../server/jobs/catalogue";
import { cronOf, runScheduleIfDue } from "../server/jobs/schedules";
import { runDueJobs } from "../server/jobs/worker";
import { createBreachScanFunctions } from "./breach-scans";
import { inngest, JOBS_DUE_EVENT } from "./client";
import { createWebhookFunctions } from "./webhooks";

/** The most rounds one drain run takes before handing over to the next event or cron tick. */
const MAX_DRAIN_ROUNDS = 25;

/**
 * Inngest functions: thin wrappers that call server/ services in steps. The jobs themselves
 * live in the database (claimed with FOR UPDATE SKIP LOCKED), so Inngest only decides when
 * work runs: at once after a JOBS_DUE_EVENT, every minute as a sweep, and on each schedule's cron.
 * The catalogue says which jobs and schedules (server/startup/job-catalogue.ts for the service).
 */
export function createInngestFunctions(getDb: () => Promise<Db>, catalogue: JobCatalogue) {
  const drainJobs = inngest.createFunction(
    {
      id: "drain-jobs",
      triggers: [{ event: JOBS_DUE_EVENT }, { cron: "* * * * *" }],
      concurrency: { limit: 2 },
    },
    async ({ step }) => {
      let ran = 0;
      for (let round = 0; round < MAX_DRAIN_ROUNDS; round++) {
        const count = await step.run(`run-due-jobs-${round}`, async () => runDueJobs(await getDb(), catalogue));
        ran += count;
        if (count === 0) break;
      }
      return { ran };
    },
  );

  const scheduleFunctions = catalogue.schedules
    .filter((schedule) => !schedule.dedicatedInngestFunction)
    .map((schedule) =>
      inngest.createFunction({ id: `schedule-${schedule.name}`, triggers: [{ cron: cronOf(schedule) }] }, async ({ step }) => {
        const started = await step.run("claim-slot-and-queue", async () => runScheduleIfDue(await getDb(), schedule));
        if (started) await step.sendEvent("wake-workers", { name: JOBS_DUE_EVENT, data: {} });
        return { started };
      }),
    );

  return [drainJobs, ...scheduleFunctions, ...createBreachScanFunctions(getDb), ...createWebhookFunctions(getDb)];
}
