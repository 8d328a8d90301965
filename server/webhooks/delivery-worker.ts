import type { Db } from "../db/client";
import { Sleeper } from "../jobs/sleeper";
import { log } from "../log";
import { performAttempt } from "./delivery-engine/attempt";
import { claimAttempts, nextDeliveryDueAt, type StartedAttempt } from "./delivery-engine/claim";
import { DELIVERY_LEASE_MS } from "./delivery-engine/limits";
import { ResultWriter } from "./delivery-engine/outcomes";
import { sweepDeliveries } from "./delivery-engine/sweep";
import { type ClaimBatch, RequestSlots } from "./request-slots";
import { ROUTE_BATCH_SIZE, routePendingEvents } from "./routing";

export interface DeliveryWorker {
  wake(): void;
  /** Stops claiming and waits for the requests in flight to be recorded. */
  stop(): Promise<void>;
}

export interface DeliveryWorkerOptions {
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
 * functions in inngest/webhooks.ts call the same engine instead). Two loops: one routes new
 * outbox events into deliveries; the other claims as many due deliveries as it has free request
 * slots and starts them without waiting; then it waits for those requests' answers, no longer
 * than the claim took, and claims again at once if any slot was freed meanwhile. Answered
 * requests free their slots (a slot freed while the loop sleeps wakes it) while their outcomes
 * are written (ResultWriter); the claim does not count those against their endpoint's share. A
 * commit that recorded events wakes both (wakeJobWorkers). Between those they sleep until the next delivery is due, `pollMs` at the
 * most, and every `sweepEveryMs` the delivery loop recovers deliveries a dead worker left behind.
 */
export function startDeliveryWorker(
  db: Db,
  { concurrency = 128, pollMs = 2_000, sweepEveryMs = 15_000, leaseMs = DELIVERY_LEASE_MS }: DeliveryWorkerOptions = {},
): DeliveryWorker {
  let stopped = false;
  const router = new Sleeper();
  const deliverer = new Sleeper();
  const wake = () => {
    router.wake();
    deliverer.wake();
  };
  const slots = new RequestSlots(concurrency, () => deliverer.wake());
  // stop() waits for every outcome to be written.
  const recording = new Set<Promise<void>>();
  const writer = new ResultWriter(db);

  const start = (attempt: StartedAttempt, batch: ClaimBatch) => {
    const { id } = attempt.delivery;
    slots.take(id, batch);
    const task: Promise<void> = performAttempt(db, writer, attempt, () => slots.answer(id))
      .catch((error: unknown) => log.error("webhook attempt could not be recorded; the sweep will recover it", { deliveryId: id, error }))
      .finally(() => {
        recording.delete(task);
        slots.settle(id);
      });
    recording.add(task);
  };

  // Routing and delivery run side by side: a burst of events being routed does not hold up
  // requests, and each routed batch wakes the delivery loop.
  const routing = forever(
    "routing",
    router,
    pollMs,
    () => stopped,
    async () => {
      const { events, deliveries } = await routePendingEvents(db);
      if (deliveries > 0) deliverer.wake();
      return events === ROUTE_BATCH_SIZE ? 0 : pollMs;
    },
  );

  let lastSweep = 0;
  const delivery = forever(
    "delivery",
    deliverer,
    pollMs,
    () => stopped,
    async () => {
      if (Date.now() - lastSweep >= sweepEveryMs) {
        lastSweep = Date.now();
        await sweepDeliveries(db);
      }
      const limit = slots.free;
      const batch = slots.beginClaim();
      let claimAgain = false;
      try {
        const claimStarted = performance.now();
        const { claimed, started } = await claimAttempts(db, { limit, leaseMs, answered: slots.answeredIds() });
        const claimMs = performance.now() - claimStarted;
        for (const attempt of started) start(attempt, batch);
        // Requests are often answered sooner than a claim returns: waiting for these (no longer
        // than this claim took) lets the next claim fill their slots too, where it would otherwise
        // find them all in flight and an endpoint at its share would get half its slots per claim.
        await batch.answeredOrAfter(claimMs);
        // Claimed fewer than asked and no slot freed since: everything claimable was taken, so
        // look when the next one is due rather than claim again for nothing. Deliveries failed
        // without a request (a disabled endpoint's) hold no slot, and nothing else would wake the
        // loop before its next poll for the rest of that endpoint's queue.
        claimAgain = claimed > 0 && (claimed >= limit || started.length < claimed);
      } finally {
        if (slots.endClaim()) claimAgain = true;
      }
      if (claimAgain) return 0;
      const dueAt = await nextDeliveryDueAt(db);
      const untilDue = dueAt ? dueAt.getTime() - Date.now() : pollMs;
      // Due but not claimable (every slot or the endpoint's share busy): a finished request wakes the loop.
      return untilDue > 0 ? Math.min(pollMs, untilDue + 5) : pollMs;
    },
  );

  return {
    wake,
    async stop() {
      stopped = true;
      wake();
      await Promise.all([routing, delivery]);
      await Promise.all(recording);
    },
  };
}

/** Runs `step` until stopped, sleeping the milliseconds it returns (0: go on at once) unless woken. */
async function forever(name: string, sleeper: Sleeper, pollMs: number, stopped: () => boolean, step: () => Promise<number>): Promise<void> {
  while (!stopped()) {
    try {
      const waitMs = await step();
      if (waitMs > 0 && !stopped()) await sleeper.sleep(waitMs);
    } catch (error) {
      if (stopped()) break;
      log.error(`webhook ${name} loop iteration failed`, { error });
      await sleeper.sleep(pollMs);
    }
  }
}
