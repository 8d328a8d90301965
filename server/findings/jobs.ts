import { Prisma, type Queryable } from "../db/client";
import { defineJob } from "../jobs/definition";
import { claimSlot, type Schedule, scheduleJob, slotOf, slotPayload } from "../jobs/schedules";
import { wakeJobWorkers } from "../jobs/wake";
import { matchNewExposuresJobType } from "../breaches/exposure-index/match-requests";
import { matchBreachesForActiveCustomers, matchPendingImports } from "./new-exposures";
import { SCAN_DEDUPE_PREFIX, scanCustomerJobType } from "../customers/scan-requests";
import { scanCustomer } from "./scanner";

/** Customers per page of the daily fan-out. */
export const DAILY_SCAN_PAGE = 1_000;

/** The contract of server/customers/scan-requests.ts: one customer's scan. */
export const scanCustomerJob = defineJob(scanCustomerJobType, {
  async run(db, payload) {
    await scanCustomer(db, payload.customerId, payload.reason);
  },
});

/**
 * Incremental matching (server/breaches/exposure-index/match-requests.ts): what an import added
 * (with every other import pending), or every exposure of some catalogue breaches, matched
 * against active customers only.
 */
export const matchNewExposuresJob = defineJob(matchNewExposuresJobType, {
  async run(db, payload) {
    if ("importId" in payload) await matchPendingImports(db, payload.importId);
    else await matchBreachesForActiveCustomers(db, payload.breachIds);
  },
});

/**
 * Queues a scan job for every active customer, a page at a time (one statement per page; a
 * customer whose scan is pending keeps that one, one whose scan runs gets one follow-up).
 * Returns how many pages it wrote.
 */
export async function enqueueDailyScans(db: Queryable): Promise<number> {
  let afterId = "00000000-0000-0000-0000-000000000000";
  let pages = 0;
  for (;;) {
    const rows = await db.$queryRaw<Array<{ last: string | null }>>`
      WITH page AS (
        SELECT id FROM customers WHERE status = 'active' AND id > ${afterId}::uuid ORDER BY id LIMIT ${DAILY_SCAN_PAGE}
      ), queued AS (
        ${scanCustomerJobType.insertSelected(Prisma.sql`
          SELECT jsonb_build_object('customerId', id, 'reason', 'daily') AS payload, ${SCAN_DEDUPE_PREFIX}::text || id AS dedupe_key FROM page`)}
      )
      SELECT max(id::text) AS last FROM page`;
    const last = rows[0]?.last;
    if (!last) return pages;
    pages++;
    afterId = last;
  }
}

/** Fans the daily scan out to one job per active customer (driven by the in-process runner). */
export const dailyScanJob = defineJob({
  kind: "breaches.daily-scan",
  payload: slotPayload,
  async run(db) {
    await enqueueDailyScans(db);
    await wakeJobWorkers();
  },
});

/**
 * The daily scan of active customers (prospects are never rescanned). With Inngest the
 * dedicated functions in inngest/breach-scans.ts drive it instead (fan-out by events).
 */
export const dailyScanSchedule: Schedule = scheduleJob(dailyScanJob, {
  name: "daily-scan",
  every: "day",
  hourUtc: 2,
  dedicatedInngestFunction: true,
});

/**
 * Claims today's daily-scan slot (the in-process schedule's slot, so a day is scanned once
 * whichever path gets there first) without queuing the fan-out job: the Inngest path, whose cron
 * already fires at the schedule's hour.
 */
export async function claimDailyScanSlot(db: Queryable, now = new Date()): Promise<string | undefined> {
  const slot = slotOf(dailyScanSchedule, now);
  return (await claimSlot(db, dailyScanSchedule, slot)) ? slot : undefined;
}
