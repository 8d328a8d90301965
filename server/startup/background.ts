import type * as InngestClient from "../../inngest/client";
import { appSecret } from "../app-key";
import { config } from "../config";
import { getAppDb } from "../db/instance";
import { startInProcessRunner } from "../jobs/runner";
import { setJobWaker } from "../jobs/wake";
import { log } from "../log";
import { onShutdown } from "../shutdown";
import { startDeliveryWorker } from "../webhooks/delivery-worker";
import { jobCatalogue } from "./job-catalogue";

/**
 * The composition of background work: which driver runs the job catalogue and the webhook
 * engine, what wakeJobWorkers() wakes (the one call of setJobWaker), and how they stop.
 */

const state = globalThis as unknown as { __backgroundStarted?: boolean };

/**
 * Called once when the server process starts (instrumentation.ts). With Inngest configured,
 * work is driven through /api/inngest and queued jobs wake it with an event; otherwise the
 * in-process runner and the webhook delivery worker drive it.
 */
export async function startBackgroundWork(): Promise<void> {
  if (state.__backgroundStarted) return;
  state.__backgroundStarted = true;
  appSecret(); // fails the start when the key that signs webhooks is missing (APP_SECRET with DATABASE_URL)
  if (config.inngestEnabled()) {
    config.inngestDev(); // refuses dev mode (unsigned calls) unless APP_URL is a loopback address
    const { inngest, JOBS_DUE_EVENT } = await loadInngest();
    setJobWaker(async () => {
      await inngest.send({ name: JOBS_DUE_EVENT, data: {} });
    });
    log.info("background work is driven by Inngest through /api/inngest");
    return;
  }
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

/**
 * The Inngest client, imported only in Inngest mode: the package and its dependencies are large,
 * and a production install may leave them out (docs/operations.md, "Production install"; the
 * start script refuses Inngest mode without them).
 */
export function loadInngest(): Promise<typeof InngestClient> {
  return import("../../inngest/client");
}

/** Where Inngest calls the functions: the service's own address, whatever Host a request names. */
export const INNGEST_SERVE_PATH = "/api/inngest";

/**
 * The client, functions and serve options app/api/inngest/route.ts serves, loaded on its first
 * request in Inngest mode. The URL the SDK registers is APP_URL's (the SDK would build it from the
 * request's Host and X-Forwarded-Proto), and every call, a sync (PUT) included, must carry
 * Inngest's signature; in dev mode, which has no signatures, APP_URL must be a loopback address.
 */
export async function inngestServeOptions() {
  config.inngestDev();
  const [{ inngest }, { createInngestFunctions }] = await Promise.all([loadInngest(), import("../../inngest/functions")]);
  return {
    client: inngest,
    functions: createInngestFunctions(getAppDb, jobCatalogue),
    serveOrigin: new URL(config.appUrl()).origin,
    servePath: INNGEST_SERVE_PATH,
    enableUnauthedSync: false,
  };
}
