import { z } from "zod";
import type { AssetRef, EventPayload, EventType } from "./outbox";

/** The event names of the earlier delivery protocol (docs/webhooks.md, "Two protocols"). */
export const LEGACY_EVENT_TYPES = ["breach.new", "breach.resolved", "breach.unresolved", "email.added", "email.removed"] as const;
export type LegacyEventType = (typeof LEGACY_EVENT_TYPES)[number];

/** The earlier name of each current event type that has one; the others have none on the earlier protocol. */
export const LEGACY_EVENT_OF: Partial<Record<EventType, LegacyEventType>> = {
  "customer.breach.found": "breach.new",
  "customer.breach.resolved": "breach.resolved",
  "customer.breach.unresolved": "breach.unresolved",
  "customer.asset.added": "email.added",
  "customer.asset.removed": "email.removed",
};

const customerUuid = z.string().meta({ format: "uuid", description: "The customer's id" });
const occurredAt = z.iso.datetime().meta({ description: "When the event happened" });

const breachStatusData = z
  .strictObject({
    customer_uuid: customerUuid,
    breach_name: z.string().nullable().meta({ description: "null for a prospect customer (names are withheld)" }),
    emails: z.array(z.string()).meta({ description: "The customer's monitored e-mail addresses found in the breach" }),
    timestamp: occurredAt,
  })
  .meta({ id: "LegacyBreachStatusData", description: "One breach resolved or unresolved" });
const emailData = z
  .strictObject({
    customer_uuid: customerUuid,
    emails: z.array(z.string()).min(1).meta({ description: "The e-mail addresses added or removed (domains are not reported)" }),
    timestamp: occurredAt,
  })
  .meta({ id: "LegacyEmailData" });

/**
 * The `data` of each earlier-protocol event (docs/webhooks.md, "Events"), strict: every body is parsed with these
 * when it is built (server/webhooks/bodies.ts), and the OpenAPI document's `webhooks` section is
 * generated from them.
 */
export const LEGACY_EVENT_DATA = {
  "breach.new": z
    .strictObject({
      customer_uuid: customerUuid,
      breaches_found: z.number().int().meta({ description: "How many breaches were found" }),
      new_breach_names: z.array(z.string()).meta({ description: "Their names; [] for a prospect customer (names are withheld)" }),
      emails_scanned: z.number().int().meta({ description: "The customer's monitored e-mail addresses" }),
      timestamp: occurredAt,
    })
    .meta({ id: "LegacyBreachNewData" }),
  "breach.resolved": breachStatusData,
  "breach.unresolved": breachStatusData,
  "email.added": emailData,
  "email.removed": emailData,
} satisfies Record<LegacyEventType, z.ZodType>;

export type LegacyEvent = { [E in LegacyEventType]: { event: E; data: z.infer<(typeof LEGACY_EVENT_DATA)[E]> } }[LegacyEventType];

export interface LegacyContext {
  /** When the event happened (the data's `timestamp`). */
  occurredAt: Date;
  /** The customer's monitored e-mail addresses now (breach.new's emails_scanned). */
  emailsScanned: number;
  /** A prospect customer: breach names are withheld (docs/webhooks.md), as in the current protocol. */
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
      const name = LEGACY_EVENT_OF[event.type] as "breach.resolved" | "breach.unresolved";
      return event.data.breaches.map((breach) => ({
        event: name,
        data: { ...base, breach_name: context.redacted ? null : breach.name, emails: breach.emails, timestamp },
      }));
    }
    case "customer.asset.added":
    case "customer.asset.removed": {
      const emails = emailValues(event.data.assets);
      if (emails.length === 0) return [];
      return [{ event: LEGACY_EVENT_OF[event.type] as "email.added" | "email.removed", data: { ...base, emails, timestamp } }];
    }
    default:
      return [];
  }
}

function emailValues(assets: AssetRef[]): string[] {
  return assets.filter((asset) => asset.type === "email").map((asset) => asset.value);
}
