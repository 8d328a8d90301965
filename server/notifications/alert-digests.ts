import { z } from "zod";
import type { Queryable } from "../db/client";
import { jobType } from "../jobs/queue";
import { UUID_PATTERN } from "../uuid";
import { customersWithHeldNotices, EMAIL_ALERT_CHANNEL } from "./quiet";

/** One customer's alert digest for a slot, run by alertDigestJob (jobs.ts). */
export const alertDigestJobType = jobType(
  "notifications.alert-digest",
  z.object({
    customerId: z.string().regex(UUID_PATTERN, "a uuid"),
    digest: z.enum(["daily", "weekly"]),
    slot: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "a day (YYYY-MM-DD)"),
  }),
);

/** The digests a daily slot sends: the daily ones every day, the weekly ones on Mondays (UTC). */
export function digestsOfSlot(slot: string): Array<"daily" | "weekly"> {
  return new Date(`${slot}T00:00:00Z`).getUTCDay() === 1 ? ["daily", "weekly"] : ["daily"];
}

/** Queues one digest job per customer the ledger holds e-mail notices for, per digest of the slot. Returns the number queued. */
export async function enqueueAlertDigests(db: Queryable, slot: string): Promise<number> {
  let queued = 0;
  for (const digest of digestsOfSlot(slot)) {
    let afterId: string | undefined;
    for (;;) {
      const page = await customersWithHeldNotices(db, EMAIL_ALERT_CHANNEL, digest, { afterId });
      if (page.length === 0) break;
      queued += await alertDigestJobType.enqueueMany(
        db,
        page.map((customerId) => ({ payload: { customerId, digest, slot }, dedupeKey: `alert-digest:${customerId}:${digest}:${slot}` })),
      );
      afterId = page[page.length - 1];
    }
  }
  return queued;
}
