import { LEGACY_EVENT_OF, toLegacyEvents, type LegacyEvent, type LegacyEventType } from "../events/legacy";
import { EVENT_TYPES, type EventPayload, type EventType } from "../events/outbox";

/**
 * Sample events for POST .../webhooks/{id}/test: the shapes of real events with obviously
 * fictitious values (the all-zero-ish uuids and example.com), so a receiver can tell them apart.
 */
const customer = { uuid: "00000000-0000-4000-8000-000000000001", name: "Example Customer Ltd", reference: "EXAMPLE-001" };
const assets = [
  { uuid: "00000000-0000-4000-8000-000000000002", type: "email" as const, value: "jane.doe@example.com" },
  { uuid: "00000000-0000-4000-8000-000000000003", type: "domain" as const, value: "example.com" },
];
const breaches = [{ uuid: "00000000-0000-4000-8000-000000000004", name: "ExampleBreach", emails: ["jane.doe@example.com"] }];

export function sampleEvent(type: EventType): EventPayload {
  switch (type) {
    case "customer.created":
    case "customer.deleted":
      return { type, data: { customer } };
    case "customer.asset.added":
    case "customer.asset.removed":
      return { type, data: { customer, assets } };
    case "customer.breach.found":
    case "customer.breach.resolved":
    case "customer.breach.unresolved":
      return { type, data: { customer, breaches } };
    case "customer.domain.verified":
      return { type, data: { customer, domain: "example.com", method: "dns", verifiedAt: "2026-01-01T00:00:00.000Z" } };
  }
}

export function sampleLegacyData(event: LegacyEventType, occurredAt: Date): LegacyEvent["data"] {
  const source = EVENT_TYPES.find((type) => LEGACY_EVENT_OF[type] === event)!;
  return toLegacyEvents(sampleEvent(source), { occurredAt, emailsScanned: 1, redacted: false })[0]!.data;
}
