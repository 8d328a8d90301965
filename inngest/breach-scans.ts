import { NonRetriableError } from "inngest";
import type { z } from "zod";
import { claimDailyScanSlot, DAILY_SCAN_PAGE, dailyScanSchedule } from "../server/findings/jobs";
import { scanCustomerJobType, type ScanReason } from "../server/customers/scan-requests";
import { activeCustomerIds, scanCustomer } from "../server/findings/scanner";
import type { Db } from "../server/db/client";
import { MalformedJobPayloadError, parseJobPayload } from "../server/jobs/definition";
import { cronOf } from "../server/jobs/schedules";
import { log } from "../server/log";
import { inngest } from "./client";

/** One customer's scan, requested by the daily fan-out. */
export const SCAN_REQUESTED_EVENT = "breaches/customer.scan-requested";
/** Scans that run at once across all workers: bounds the load on the database and the breach source. */
export const SCAN_CONCURRENCY = 8;

/**
 * The daily scan under Inngest: a cron function claims the day's slot (shared with the
 * in-process schedule, so a day is scanned once), pages through the active customers and sends
 * one event per customer; the per-customer function scans under a concurrency limit, each scan
 * retried by Inngest on its own.
 */
export function createBreachScanFunctions(getDb: () => Promise<Db>) {
  const dailyScan = inngest.createFunction(
    { id: "breaches-daily-scan", triggers: [{ cron: cronOf(dailyScanSchedule) }] },
    async ({ step }) => {
      const slot = await step.run("claim-slot", async () => (await claimDailyScanSlot(await getDb())) ?? null);
      if (!slot) return { slot: null, requested: 0 };
      let requested = 0;
      let afterId: string | undefined;
      for (let page = 0; ; page++) {
        const ids: string[] = await step.run(`list-active-customers-${page}`, async () =>
          activeCustomerIds(await getDb(), { afterId, limit: DAILY_SCAN_PAGE }),
        );
        if (ids.length === 0) break;
        await step.sendEvent(
          `request-scans-${page}`,
          ids.map((customerId) => ({ name: SCAN_REQUESTED_EVENT, data: { customerId, reason: "daily" satisfies ScanReason } })),
        );
        requested += ids.length;
        afterId = ids[ids.length - 1];
        if (ids.length < DAILY_SCAN_PAGE) break;
      }
      return { slot, requested };
    },
  );

  // No event dedupe or per-customer key: a scan asked for while this one runs is a job row of its
  // own (drain-jobs), never joined to this run, so it is not lost (scans of a customer serialize
  // on its row lock).
  const scanOneCustomer = inngest.createFunction(
    {
      id: "breaches-scan-customer",
      triggers: [{ event: SCAN_REQUESTED_EVENT }],
      concurrency: { limit: SCAN_CONCURRENCY },
    },
    async ({ event, step }) => {
      const { customerId, reason } = parseEventPayload(scanCustomerJobType, event.data);
      return step.run("scan", async () => scanCustomer(await getDb(), customerId, reason));
    },
  );

  return [dailyScan, scanOneCustomer] as const;
}

/**
 * An event's data checked by the job type's schema, as the worker checks a job row's payload: a
 * malformed one is logged and fails the run without retries (NonRetriableError), the handler unrun.
 */
function parseEventPayload<P>(type: { readonly kind: string; readonly payload: z.ZodType<P> }, data: unknown): P {
  try {
    return parseJobPayload(type, data);
  } catch (error) {
    if (!(error instanceof MalformedJobPayloadError)) throw error;
    log.error("job attempt failed", { kind: type.kind, outcome: "failed", error });
    throw new NonRetriableError(error.message, { cause: error });
  }
}
