import type { Queryable } from "../db/client";
import { jobType } from "../jobs/queue";

export const SCAN_CUSTOMER_JOB = "breaches.scan-customer";
/** A customer's queued scan job has the dedupe key `<prefix><customer id>`: one at a time per customer. */
export const SCAN_DEDUPE_PREFIX = "scan:";

export type ScanReason = "onboard" | "upgrade" | "assets" | "reactivate" | "daily" | "manual";

/** One customer's scan, run by scanCustomerJob (server/breaches/jobs.ts). */
export const scanCustomerJobType = jobType<{ customerId: string; reason: ScanReason }>(SCAN_CUSTOMER_JOB);

/**
 * Asks for a scan of one customer's monitored assets. Call it inside the transaction of the
 * change that calls for it (onboarding, upgrade, an asset change); wake the job workers after
 * the commit. While a scan of the customer is already queued, this adds nothing.
 */
export async function requestCustomerScan(tx: Queryable, customerId: string, reason: ScanReason): Promise<void> {
  await scanCustomerJobType.enqueue(tx, { customerId, reason }, { dedupeKey: `${SCAN_DEDUPE_PREFIX}${customerId}` });
}
