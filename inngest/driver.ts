import { appSecret } from "../server/app-key";
import { config } from "../server/config";
import { getAppDb } from "../server/db/instance";
import { setJobWaker } from "../server/jobs/wake";
import { log } from "../server/log";
import { jobCatalogue } from "../server/startup/job-catalogue";

/**
 * Background work driven by Inngest (chosen by instrumentation.ts when Inngest is configured):
 * queued jobs wake it with an event, and Inngest calls the functions through /api/inngest. The
 * package is imported only here and by that route, so a production install may leave it out.
 */
export async function startInngestDriver(): Promise<void> {
  appSecret(); // fails the start when the key that signs webhooks is missing (APP_SECRET with DATABASE_URL)
  config.inngestDev(); // refuses dev mode (unsigned calls) unless APP_URL is a loopback address
  const { inngest, JOBS_DUE_EVENT } = await import("./client");
  setJobWaker(async () => {
    await inngest.send({ name: JOBS_DUE_EVENT, data: {} });
  });
  log.info("background work is driven by Inngest through /api/inngest");
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
  const [{ inngest }, { createInngestFunctions }] = await Promise.all([import("./client"), import("./functions")]);
  return {
    client: inngest,
    functions: createInngestFunctions(getAppDb, jobCatalogue),
    serveOrigin: new URL(config.appUrl()).origin,
    servePath: INNGEST_SERVE_PATH,
    enableUnauthedSync: false,
  };
}
