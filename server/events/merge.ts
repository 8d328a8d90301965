import type { BreachSummary, EventPayload } from "./outbox";

export interface StoredEvent {
  id: string;
  partnerId: string;
  customerId: string | null;
  createdAt: Date;
  event: EventPayload;
}

/** A logical event to deliver: one stored event, or several merged; `id` is the first one's. */
export interface MergedEvent extends StoredEvent {
  mergedIds: string[];
}

/**
 * Merges the customer.breach.found events of one customer that are routed together (queued
 * close together) into the first of them: the breaches of all, a breach that appears
 * more than once listed once with the union of its e-mail addresses (and captured websites). Other events pass through
 * in order. The merged event keeps the first event's id, so its idempotency token is stable.
 */
export function mergeEvents(events: StoredEvent[]): MergedEvent[] {
  const result: MergedEvent[] = [];
  const foundByCustomer = new Map<string, MergedEvent>();
  for (const stored of events) {
    if (stored.event.type !== "customer.breach.found" || !stored.customerId) {
      result.push({ ...stored, mergedIds: [stored.id] });
      continue;
    }
    const key = `${stored.partnerId}:${stored.customerId}`;
    const first = foundByCustomer.get(key);
    if (!first || first.event.type !== "customer.breach.found") {
      const copy: MergedEvent = {
        ...stored,
        event: { type: stored.event.type, data: { ...stored.event.data, breaches: stored.event.data.breaches.map(copyBreach) } },
        mergedIds: [stored.id],
      };
      foundByCustomer.set(key, copy);
      result.push(copy);
      continue;
    }
    first.mergedIds.push(stored.id);
    for (const breach of stored.event.data.breaches) {
      const existing = first.event.data.breaches.find((candidate) => candidate.uuid === breach.uuid);
      if (existing) {
        existing.emails = [...new Set([...existing.emails, ...breach.emails])];
        if (breach.websiteDomains)
          existing.websiteDomains = [...new Set([...(existing.websiteDomains ?? []), ...breach.websiteDomains])].sort();
      } else first.event.data.breaches.push(copyBreach(breach));
    }
  }
  return result;
}

function copyBreach(breach: BreachSummary): BreachSummary {
  return { ...breach, emails: [...breach.emails], ...(breach.websiteDomains && { websiteDomains: [...breach.websiteDomains] }) };
}
