import type { Queryable } from "../db/client";

/** A step another domain runs in the transaction that offboards a customer (makes it inactive). */
export type OffboardingStep = (tx: Queryable, customerId: string) => Promise<void>;

const steps = new Set<OffboardingStep>();

/**
 * Adds a step to every offboarding. The portal, which sits above the customers, registers the
 * end of the customer's portal access here when its sessions module loads (server/portal/sessions.ts),
 * so the customers' lifecycle ends it without importing the portal.
 */
export function onCustomerOffboarded(step: OffboardingStep): void {
  steps.add(step);
}

/** Runs the registered steps in the offboarding's transaction. */
export async function runOffboardingSteps(tx: Queryable, customerId: string): Promise<void> {
  for (const step of steps) await step(tx, customerId);
}
