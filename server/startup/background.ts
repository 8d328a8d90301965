import { appSecret } from "../app-key";
import { getAppDb } from "../db/instance";
import { startInProcessRunner } from "../jobs/runner";
import { setJobWaker } from "../jobs/wake";
import { log } from "../log";
import { onShutdown } from "../shutdown";
import { startDeliveryWorker } from "../webhooks/delivery-worker";
import { jobCatalogue } from "./job-catalogue";

/**
 * Background work in this process (the default; instrumentation.ts chooses Inngest's driver,
 * inngest/driver.ts, instead when Inngest is configured): the in-process runner runs the job
 * catalogue and the webhook delivery worker the webhook engine; wakeJobWorkers() wakes both.
 */
export async function startInProcessWork(): Promise<void> {
  appSecret(); // fails the start when the key that signs webhooks is missing (APP_SECRET with DATABASE_URL)
  const db = await getAppDb();
  const runner = startInProcessRunner(db, jobCatalogue);
  const webhooks = startDeliveryWorker(db);
  setJobWaker(() => {
    runner.wake();
    webhooks.wake();
  });
  // On shutdown neither claims more; jobs and webhook attempts in flight finish (an attempt is
  // bounded by its request timeout), or are taken again by any process once their lease runs out.
  onShutdown("work", "job runner", () => runner.stop());
  onShutdown("work", "webhook delivery worker", () => webhooks.stop());
  log.info("background work is driven by the in-process runner");
}
