import { z } from "zod";
import type { Queryable } from "../db/client";
import { jobType } from "../jobs/queue";
import { UUID_PATTERN } from "../uuid";

export const SCAN_CUSTOMER_JOB = "breaches.scan-customer";
/** A customer's queued scan job has the dedupe key `<prefix><customer id>`: one at a time per customer. */
export const SCAN_DEDUPE_PREFIX = "scan:";

const scanReason = z.enum(["onboard", "upgrade", "assets", "reactivate", "daily", "manual", "directory"]);
export type ScanReason = z.infer<typeof scanReason>;

/**
 * One customer's scan, run by scanCustomerJob (server/findings/jobs.ts); also the data of the
 * Inngest event that asks for one (inngest/breach-scans.ts). The scan reads the assets when it
 * starts, so a request made while it runs queues one follow-up scan after it (followUpWhileRunning).
 */
export const scanCustomerJobType = jobType(
  SCAN_CUSTOMER_JOB,
  z.object({ customerId: z.string().regex(UUID_PATTERN, "a uuid"), reason: scanReason }),
  { followUpWhileRunning: true },
);

/**
 * Asks for a scan of one customer's monitored assets. Call it inside the transaction of the
 * change that calls for it (onboarding, upgrade, an asset change); wake the job workers after
 * the commit. While a scan of the customer is pending, this joins it; while one runs, one more
 * scan follows it (however many requests come meanwhile), so the change is always scanned.
 */
export async function requestCustomerScan(tx: Queryable, customerId: string, reason: ScanReason): Promise<void> {
  await scanCustomerJobType.enqueue(tx, { customerId, reason }, { dedupeKey: `${SCAN_DEDUPE_PREFIX}${customerId}` });
}
