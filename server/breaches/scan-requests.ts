import type { Queryable } from "../jobs/queue";
import { enqueueJob } from "../jobs/queue";

export const SCAN_CUSTOMER_JOB = "breaches.scan-customer";
/** A customer's queued scan job has the dedupe key `<prefix><customer id>`: one at a time per customer. */
export const SCAN_DEDUPE_PREFIX = "scan:";

export type ScanReason = "onboard" | "upgrade" | "assets" | "reactivate" | "daily" | "manual";

/**
 * Asks for a scan of one customer's monitored assets. Call it inside the transaction of the
 * change that calls for it (onboarding, upgrade, an asset change); wake the job workers after
 * the commit. While a scan of the customer is already queued, this adds nothing.
 */
export async function requestCustomerScan(tx: Queryable, customerId: string, reason: ScanReason): Promise<void> {
  await enqueueJob(tx, { kind: SCAN_CUSTOMER_JOB, payload: { customerId, reason }, dedupeKey: `${SCAN_DEDUPE_PREFIX}${customerId}` });
}
