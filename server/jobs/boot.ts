import { createInngestFunctions } from "../../inngest/functions";
import { inngest, JOBS_DUE_EVENT } from "../../inngest/client";
import { config } from "../config";
import { getAppDb } from "../db/instance";
import { log } from "../log";
import { startInProcessRunner } from "./runner";
import { setJobWaker } from "./wake";

const state = globalThis as unknown as { __backgroundStarted?: boolean };

/**
 * Called once when the server process starts (instrumentation.ts). With Inngest configured,
 * work is driven through /api/inngest and queued jobs wake it with an event; otherwise the
 * in-process runner drives it.
 */
export async function startBackgroundWork(): Promise<void> {
  if (state.__backgroundStarted) return;
  state.__backgroundStarted = true;
  if (config.inngestEnabled()) {
    setJobWaker(async () => {
      await inngest.send({ name: JOBS_DUE_EVENT, data: {} });
    });
    log.info("background work is driven by Inngest through /api/inngest");
    return;
  }
  const runner = startInProcessRunner(await getAppDb());
  setJobWaker(() => runner.wake());
  log.info("background work is driven by the in-process runner");
}

export function inngestFunctionsForApp() {
  return createInngestFunctions(getAppDb);
}
