import type { AssetRef, EventPayload, EventType } from "./outbox";

/** The event names of the earlier delivery protocol (SPEC 6.2). */
export const LEGACY_EVENT_TYPES = ["breach.new", "breach.resolved", "breach.unresolved", "email.added", "email.removed"] as const;
export type LegacyEventType = (typeof LEGACY_EVENT_TYPES)[number];

/** The earlier name of each current event type that has one; the others have no legacy event. */
export const LEGACY_EVENT_OF: Partial<Record<EventType, LegacyEventType>> = {
  "customer.breach.found": "breach.new",
  "customer.breach.resolved": "breach.resolved",
  "customer.breach.unresolved": "breach.unresolved",
  "customer.asset.added": "email.added",
  "customer.asset.removed": "email.removed",
};

export interface LegacyEvent {
  event: LegacyEventType;
  data: Record<string, unknown>;
}

export interface LegacyContext {
  /** When the event happened (the data's `timestamp`). */
  occurredAt: Date;
  /** The customer's monitored e-mail addresses now (breach.new's emails_scanned). */
  emailsScanned: number;
  /** A prospect customer: breach names are withheld (SPEC 2.4), as in the current protocol. */
  redacted: boolean;
}

/**
 * The earlier protocol's events for one event: breach.new for breach.found; one breach.resolved
 * or breach.unresolved per breach (its data names one breach); email.added / email.removed with
 * the e-mail assets only (none when only domains changed); nothing for customer.created/deleted.
 */
export function toLegacyEvents(event: EventPayload, context: LegacyContext): LegacyEvent[] {
  const base = { customer_uuid: event.data.customer.uuid };
  const timestamp = context.occurredAt.toISOString();
  switch (event.type) {
    case "customer.breach.found":
      return [
        {
          event: "breach.new",
          data: {
            ...base,
            breaches_found: event.data.breaches.length,
            new_breach_names: context.redacted ? [] : event.data.breaches.map((breach) => breach.name),
            emails_scanned: context.emailsScanned,
            timestamp,
          },
        },
      ];
    case "customer.breach.resolved":
    case "customer.breach.unresolved": {
      const name = LEGACY_EVENT_OF[event.type]!;
      return event.data.breaches.map((breach) => ({
        event: name,
        data: { ...base, breach_name: context.redacted ? null : breach.name, emails: breach.emails, timestamp },
      }));
    }
    case "customer.asset.added":
    case "customer.asset.removed": {
      const emails = emailValues(event.data.assets);
      if (emails.length === 0) return [];
      return [{ event: LEGACY_EVENT_OF[event.type]!, data: { ...base, emails, timestamp } }];
    }
    default:
      return [];
  }
}

function emailValues(assets: AssetRef[]): string[] {
  return assets.filter((asset) => asset.type === "email").map((asset) => asset.value);
}
