import type { Db } from "../server/db/client";
import { deliverDueBatch } from "../server/webhooks/delivery-engine/batch";
import { nextDeliveryDueAt } from "../server/webhooks/delivery-engine/claim";
import { sweepDeliveries } from "../server/webhooks/delivery-engine/sweep";
import { routePendingEvents } from "../server/webhooks/routing";
import { inngest, JOBS_DUE_EVENT } from "./client";

/** Sent when webhook work is due later (a retry) or was found by the sweep. */
export const WEBHOOKS_DUE_EVENT = "app/webhooks.due";
/** Rounds per run; each round routes new events and sends one batch (every request bounded by its timeout). */
const MAX_ROUNDS = 20;
/** A retry due within this window gets a scheduled wake-up event; later ones are the sweep's. */
const SCHEDULE_WITHIN_MS = 60_000;

/**
 * Webhook delivery when Inngest drives background work: thin wrappers around the engine in
 * server/webhooks. `deliver-webhooks` runs when a commit woke the workers (JOBS_DUE_EVENT, the
 * event every wakeJobWorkers() sends) or when webhook work is due; it ends by scheduling an
 * event at the next retry. `sweep-webhooks` runs every minute: it recovers deliveries whose
 * worker died and starts a delivery run when anything is waiting.
 */
export function createWebhookFunctions(getDb: () => Promise<Db>) {
  const deliver = inngest.createFunction(
    { id: "deliver-webhooks", triggers: [{ event: JOBS_DUE_EVENT }, { event: WEBHOOKS_DUE_EVENT }], concurrency: { limit: 4 } },
    async ({ step }) => {
      let routed = 0;
      let attempted = 0;
      for (let round = 0; round < MAX_ROUNDS; round++) {
        const result = await step.run(`route-and-deliver-${round}`, async () => {
          const db = await getDb();
          const { events } = await routePendingEvents(db);
          return { events, claimed: await deliverDueBatch(db) };
        });
        routed += result.events;
        attempted += result.claimed;
        if (result.events === 0 && result.claimed === 0) break;
      }
      const nextDueAt = await step.run("next-due", async () => (await nextDeliveryDueAt(await getDb()))?.getTime() ?? null);
      if (nextDueAt !== null && nextDueAt - Date.now() < SCHEDULE_WITHIN_MS) {
        await step.sendEvent("wake-at-next-due", { name: WEBHOOKS_DUE_EVENT, data: {}, ts: Math.max(nextDueAt, Date.now()) });
      }
      return { routed, attempted };
    },
  );

  const sweep = inngest.createFunction({ id: "sweep-webhooks", triggers: [{ cron: "* * * * *" }] }, async ({ step }) => {
    const recovered = await step.run("recover-expired-leases", async () => sweepDeliveries(await getDb()));
    const due = await step.run("find-due-work", async () => {
      const dueAt = await nextDeliveryDueAt(await getDb());
      return dueAt !== undefined && dueAt.getTime() <= Date.now();
    });
    if (due) await step.sendEvent("start-delivery", { name: WEBHOOKS_DUE_EVENT, data: {} });
    return { recovered, due };
  });

  return [deliver, sweep];
}
