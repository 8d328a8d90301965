import { requestCustomerScan, type ScanReason } from "./scan-requests";
import type { Db, Queryable } from "../db/client";
import type { CustomerStatus } from "../db/generated/enums";
import { conflict, unprocessable, type AppError } from "../errors";
import { customerRef, recordEvent } from "../events/outbox";
import { capturedWebsites, websitesOfBreach } from "../breaches/exposure-index/captured-websites";
import { wakeJobWorkers } from "../jobs/wake";
import { log } from "../log";
import { syncBillingPeriod } from "./billing-periods";
import { runOffboardingSteps } from "./offboarding";
import { CUSTOMER_NOT_FOUND, lockOwnedCustomer } from "./ownership";

interface Transition<From extends CustomerStatus> {
  from: readonly From[];
  to: CustomerStatus;
  /** The refusal for every status the transition does not start from. */
  refusals: Record<Exclude<CustomerStatus, From>, () => AppError>;
  notFoundMessage: string;
  /** The scan the customer gets once the transition committed. */
  scan?: ScanReason;
  /** customer.deleted: the customer is offboarded (docs/customers.md). */
  recordsDeletion?: boolean;
  /**
   * One customer.breach.found listing every breach instance the customer has: a prospect's
   * breach events were redacted, so a receiver's copy gets the full findings now.
   */
  announcesFindings?: boolean;
}

function transition<From extends CustomerStatus>(definition: Transition<From>): Transition<From> {
  return definition;
}

const alreadyActive = () => conflict("Customer is already active");

/**
 * The status changes of docs/customers.md (Lifecycle), one row each, with the refusal for every
 * other starting status. Nothing else about the customer changes: plan, price, billing, assets
 * and breach records stay as they are. Nothing moves a customer into `dormant` here; from
 * `dormant` the partner can offboard (docs/customers.md).
 */
export const TRANSITIONS = {
  offboard: transition({
    from: ["active", "prospect", "dormant"],
    to: "inactive",
    refusals: { inactive: () => conflict("Customer is already inactive") },
    notFoundMessage: CUSTOMER_NOT_FOUND,
    recordsDeletion: true,
  }),
  reactivate: transition({
    from: ["inactive"],
    to: "active",
    refusals: {
      active: alreadyActive,
      prospect: () => unprocessable("Customer cannot be reactivated: customer is not inactive"),
      dormant: () => unprocessable("Customer cannot be reactivated: customer is not inactive"),
    },
    notFoundMessage: "Customer not found",
    scan: "reactivate",
  }),
  upgrade: transition({
    from: ["prospect"],
    to: "active",
    refusals: {
      active: alreadyActive,
      inactive: () => unprocessable("Customer cannot be upgraded: customer is not a prospect"),
      dormant: () => unprocessable("Customer cannot be upgraded: customer is not a prospect"),
    },
    notFoundMessage: CUSTOMER_NOT_FOUND,
    scan: "upgrade",
    announcesFindings: true,
  }),
  downgrade: transition({
    from: ["active"],
    to: "prospect",
    refusals: {
      prospect: () => conflict("Customer is already a prospect"),
      inactive: () => unprocessable("Customer cannot be downgraded: customer is not active"),
      dormant: () => unprocessable("Customer cannot be downgraded: customer is not active"),
    },
    notFoundMessage: CUSTOMER_NOT_FOUND,
  }),
};

export type TransitionName = keyof typeof TRANSITIONS;

/**
 * Moves the partner's customer along one transition. The customer's row is locked while its
 * status is checked and changed, so of two concurrent calls the second sees the first's result;
 * in the same transaction the transition's event and scan request are recorded.
 */
export async function transitionCustomer(
  db: Db,
  partnerId: string,
  customerId: string,
  name: TransitionName,
): Promise<{ customerId: string; status: CustomerStatus }> {
  const definition: Transition<CustomerStatus> = TRANSITIONS[name];
  const customer = await db.$transaction(async (tx) => {
    const customer = await lockOwnedCustomer(tx, partnerId, customerId, definition.notFoundMessage);
    if (!definition.from.includes(customer.status)) {
      throw (definition.refusals as Record<CustomerStatus, () => AppError>)[customer.status]();
    }
    await tx.customer.update({ where: { id: customer.id }, data: { status: definition.to, statusChangedAt: new Date() } });
    await syncBillingPeriod(tx, customer.id);
    if (definition.recordsDeletion) {
      await recordEvent(tx, { type: "customer.deleted", partnerId, customerId: customer.id, data: { customer: customerRef(customer) } });
    }
    if (definition.announcesFindings) await recordAllFindings(tx, partnerId, customer);
    if (definition.scan) await requestCustomerScan(tx, customer.id, definition.scan);
    if (definition.to === "inactive") await runOffboardingSteps(tx, customer.id);
    return customer;
  });
  log.info(`customer ${name}`, { partnerId, customerId: customer.id, from: customer.status, to: definition.to });
  if (definition.scan) await wakeJobWorkers();
  return { customerId: customer.id, status: definition.to };
}

/**
 * Records one customer.breach.found with every breach instance of the customer (uuid, name, the
 * addresses, a stealer log's captured websites), nothing when it has none. Routed after the status change committed, so it carries
 * the full data (docs/webhooks.md, "Events").
 */
async function recordAllFindings(
  tx: Queryable,
  partnerId: string,
  customer: Parameters<typeof customerRef>[0] & { id: string },
): Promise<void> {
  const instances = await tx.customerBreach.findMany({
    where: { customerId: customer.id },
    select: { id: true, emails: true, breachId: true, breach: { select: { name: true, isStealerLog: true } } },
    orderBy: { createdAt: "asc" },
  });
  if (instances.length === 0) return;
  const websites = await capturedWebsites(
    tx,
    instances.filter((instance) => instance.breach.isStealerLog),
  );
  await recordEvent(tx, {
    type: "customer.breach.found",
    partnerId,
    customerId: customer.id,
    data: {
      customer: customerRef(customer),
      breaches: instances.map((instance) => ({
        uuid: instance.id,
        name: instance.breach.name,
        emails: instance.emails,
        ...(instance.breach.isStealerLog && { websiteDomains: websitesOfBreach(websites.get(instance.breachId)) }),
      })),
    },
  });
}
