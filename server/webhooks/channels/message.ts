import type { EventPayload, EventType } from "../../events/outbox";
import type { ChannelSeverity } from "./severity";

/**
 * What a channel is told, whatever its type: each adapter (adapters/) formats this one model
 * for its receiver (a Block Kit message, an Adaptive Card, CEF records).
 */
export interface ChannelFinding {
  /** The breach instance (what breach/status takes as breachId). */
  breachInstanceId: string;
  /** Null while the customer is a prospect: breach names are withheld (docs/webhooks.md). */
  breachName: string | null;
  dataClasses: string[];
  severity: ChannelSeverity;
  /** The mailboxes this message reports for the breach: only those not reported to the channel before. */
  emails: string[];
}

export interface ChannelMessage {
  /** The outbox event's id (a fresh one for a test): the receiver's idempotency token. */
  eventId: string;
  eventType: EventType;
  severity: ChannelSeverity;
  occurredAt: Date;
  customer: { id: string; name: string; reference: string };
  title: string;
  /** One line per fact of a non-breach event (assets, the domain). */
  details: string[];
  /** Breach events only. */
  findings: ChannelFinding[];
  /** The customer's page in the admin console. */
  link: string;
  test: boolean;
}

const TITLES: Record<EventType, string> = {
  "customer.created": "Customer added",
  "customer.deleted": "Customer removed",
  "customer.asset.added": "Monitored assets added",
  "customer.asset.removed": "Monitored assets removed",
  "customer.breach.found": "Exposure found",
  "customer.breach.resolved": "Exposure resolved",
  "customer.breach.unresolved": "Exposure reopened",
  "customer.domain.verified": "Domain verified",
};

/** The facts of a non-breach event, one line each. */
export function eventDetails(event: EventPayload): string[] {
  switch (event.type) {
    case "customer.asset.added":
    case "customer.asset.removed":
      return event.data.assets.map((asset) => `${asset.type === "domain" ? "Domain" : "Mailbox"}: ${asset.value}`);
    case "customer.domain.verified":
      return [`Domain: ${event.data.domain}`, `Verified by: ${event.data.method}`];
    default:
      return [];
  }
}

export function channelMessage(
  event: EventPayload,
  facts: { eventId: string; severity: ChannelSeverity; occurredAt: Date; findings: ChannelFinding[]; appUrl: string; test?: boolean },
): ChannelMessage {
  const { customer } = event.data;
  return {
    eventId: facts.eventId,
    eventType: event.type,
    severity: facts.severity,
    occurredAt: facts.occurredAt,
    customer: { id: customer.uuid, name: customer.name, reference: customer.reference },
    title: `${facts.test ? "[Test] " : ""}${TITLES[event.type]}: ${customer.name}`,
    details: eventDetails(event),
    findings: facts.findings,
    link: `${facts.appUrl}/admin/customers/${customer.uuid}`,
    test: facts.test ?? false,
  };
}

/** "3 mailboxes in 2 breaches", the short line every format leads with. */
export function findingsSummary(findings: readonly ChannelFinding[]): string {
  const mailboxes = new Set(findings.flatMap((finding) => finding.emails)).size;
  const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  return `${count(mailboxes, "mailbox", "mailboxes")} in ${count(findings.length, "breach", "breaches")}`;
}
