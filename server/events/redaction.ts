import type { BreachSummary, CustomerRef, EventPayload, EventType } from "./outbox";
import type { RedactedBreachData } from "./payloads";

const BREACH_EVENT_TYPES: ReadonlySet<EventType> = new Set([
  "customer.breach.found",
  "customer.breach.resolved",
  "customer.breach.unresolved",
]);

export function isBreachEvent(type: EventType): boolean {
  return BREACH_EVENT_TYPES.has(type);
}

/**
 * What a receiver of the current protocol gets as `data`: the event's payload, or for a
 * prospect customer's breach event the redacted shape (redactedBreachDataSchema), which
 * withholds breach names and every other breach detail (docs/webhooks.md, "From event to delivery"). In the redacted
 * breaches, `id` is as in the redacted API list and `uuid` as the upgrade description names
 * it: the same value.
 */
export function currentProtocolData(event: EventPayload, { partnerId, redacted }: { partnerId: string; redacted: boolean }) {
  if (!redacted || !isBreachEvent(event.type)) return event.data;
  const { customer, breaches } = event.data as { customer: CustomerRef; breaches: BreachSummary[] };
  const resolved = event.type === "customer.breach.resolved";
  const redactedData: RedactedBreachData = {
    customer,
    partnerId,
    breachStatus: breaches.length > 0,
    count: breaches.length,
    breaches: breaches.map((breach) => ({ id: breach.uuid, uuid: breach.uuid, emails: breach.emails, resolved })),
  };
  return redactedData;
}
