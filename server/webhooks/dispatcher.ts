import type { Db } from "../db/client";
import { log } from "../log";
import { claimDueDeliveries, DELIVERY_LEASE_MS, nextDeliveryDueAt, performAttempt, startAttempts, sweepDeliveries } from "./delivery";
import { ROUTE_BATCH_SIZE, routePendingEvents } from "./routing";

export interface WebhookDispatcher {
  wake(): void;
  /** Stops claiming and waits for the requests in flight to be recorded. */
  stop(): Promise<void>;
}

export interface DispatcherOptions {
  /** Requests in flight in this process. */
  concurrency?: number;
  /** Longest sleep between looks at the queue when not woken. */
  pollMs?: number;
  sweepEveryMs?: number;
  /** How long a claimed delivery stays this process's (default DELIVERY_LEASE_MS). */
  leaseMs?: number;
}

/**
 * The in-process driver of webhook delivery (the default; with Inngest configured the Inngest
 * functions in inngest/webhooks.ts call the same engine instead). One loop routes new outbox
 * events, claims as many due deliveries as it has free request slots, and starts them without
 * waiting; a finished request frees its slot and wakes the loop, as does a commit that recorded
 * events (wakeJobWorkers). Between those it sleeps until the next delivery is due, `pollMs` at
 * the most, and every `sweepEveryMs` it recovers deliveries a dead worker left behind.
 */
export function startWebhookDispatcher(
  db: Db,
  { concurrency = 64, pollMs = 2_000, sweepEveryMs = 15_000, leaseMs = DELIVERY_LEASE_MS }: DispatcherOptions = {},
): WebhookDispatcher {
  let stopped = false;
  let wakeUp: (() => void) | undefined;
  let lastSweep = 0;
  const inFlight = new Set<Promise<void>>();

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wakeUp = undefined;
        resolve();
      }
      wakeUp = done;
    });
  const wake = () => wakeUp?.();

  const start = (attempt: Awaited<ReturnType<typeof startAttempts>>[number]) => {
    const task: Promise<void> = performAttempt(db, attempt)
      .catch((error: unknown) => log.error("webhook attempt could not be recorded; the sweep will recover it", { deliveryId: attempt.delivery.id, error }))
      .finally(() => {
        inFlight.delete(task);
        wake();
      });
    inFlight.add(task);
  };

  const loop = (async () => {
    while (!stopped) {
      try {
        if (Date.now() - lastSweep >= sweepEveryMs) {
          lastSweep = Date.now();
          await sweepDeliveries(db);
        }
        const routed = await routePendingEvents(db);
        const claimed = await claimDueDeliveries(db, { limit: concurrency - inFlight.size, leaseMs });
        for (const attempt of await startAttempts(db, claimed)) start(attempt);
        if (routed.events === ROUTE_BATCH_SIZE || claimed.length > 0) continue;
        const dueAt = await nextDeliveryDueAt(db);
        const untilDue = dueAt ? dueAt.getTime() - Date.now() : pollMs;
        // Due but not claimable (every slot or the endpoint's share busy): a finished request wakes the loop.
        await sleep(untilDue > 0 ? Math.min(pollMs, untilDue + 5) : pollMs);
      } catch (error) {
        if (stopped) break;
        log.error("webhook dispatcher iteration failed", { error });
        await sleep(pollMs);
      }
    }
  })();

  return {
    wake,
    async stop() {
      stopped = true;
      wake();
      await loop;
      await Promise.all(inFlight);
    },
  };
}
