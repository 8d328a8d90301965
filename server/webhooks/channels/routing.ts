import { config } from "../../config";
import type { BulkTransaction } from "../../db/bulk-write";
import type { MergedEvent } from "../../events/merge";
import { isBreachEvent } from "../../events/redaction";
import { formatForChannel } from "./adapters";
import { channelMessage, type ChannelFinding } from "./message";
import { candidateKey, filterChannelNotifications, type NotificationCandidate } from "./notify-once";
import { atLeast, findingSeverity, highest, type BreachFacts, type ChannelSeverity } from "./severity";
import type { ChannelType } from "./targets";

/**
 * Routing for channels (the webhook router calls it with the batch it routes, in its
 * transaction): each event of a type a channel takes becomes one delivery for that channel,
 * holding only the findings at or above its lowest severity that it was never told before
 * (notify-once.ts). An event left with nothing to tell writes no delivery.
 */
export interface ChannelEndpoint {
  id: string;
  eventTypes: string[];
  maxAttempts: number;
  enabled: boolean;
}

export interface ChannelDelivery {
  endpointId: string;
  eventId: string;
  eventType: string;
  body: string;
  maxAttempts: number;
  disabled: boolean;
}

interface ChannelRow {
  id: string;
  type: ChannelType;
  minSeverity: ChannelSeverity;
  digest: "off" | "daily" | "weekly";
}

/** What a digest channel holds for its summary instead of sending: new exposures (channels/digests.ts). */
export const DIGEST_EVENT_TYPE = "customer.breach.found";

interface InstanceRow extends BreachFacts {
  id: string;
  breachId: string;
}

interface Planned {
  event: MergedEvent;
  endpoint: ChannelEndpoint;
  channel: ChannelRow;
  /** Breach events: each finding's candidates, by breach instance. */
  findings: Array<{ finding: ChannelFinding; candidates: NotificationCandidate[] }>;
}

export async function channelDeliveries(
  tx: BulkTransaction,
  events: readonly MergedEvent[],
  endpointsOf: (partnerId: string) => readonly ChannelEndpoint[],
  isProspect: (customerId: string | null) => boolean,
): Promise<ChannelDelivery[]> {
  const wanted = events.flatMap((event) =>
    endpointsOf(event.partnerId)
      .filter((endpoint) => endpoint.eventTypes.includes(event.event.type))
      .map((endpoint) => ({ event, endpoint })),
  );
  if (wanted.length === 0) return [];
  const channels = new Map(
    (
      await tx.query<ChannelRow>(
        `SELECT id::text, type::text, min_severity::text AS "minSeverity", digest::text FROM integration_channels WHERE id = ANY($1::uuid[])`,
        [[...new Set(wanted.map(({ endpoint }) => endpoint.id))]],
      )
    ).map((row) => [row.id, row]),
  );
  const instances = await breachInstances(
    tx,
    wanted.map(({ event }) => event),
  );
  const planned: Planned[] = [];
  for (const { event, endpoint } of wanted) {
    const channel = channels.get(endpoint.id);
    if (!channel) continue;
    planned.push({ event, endpoint, channel, findings: findingsFor(event, channel, instances, isProspect(event.customerId)) });
  }
  const kept = await filterChannelNotifications(
    tx,
    planned.flatMap((plan) => plan.findings.flatMap((entry) => entry.candidates)),
  );
  const deliveries: ChannelDelivery[] = [];
  for (const { event, endpoint, channel, findings } of planned) {
    const told = findings
      .map(({ finding, candidates }) => ({ ...finding, emails: candidates.filter((c) => kept.has(candidateKey(c))).map((c) => c.email) }))
      .filter((finding) => finding.emails.length > 0);
    const breachEvent = isBreachEvent(event.event.type);
    if (held(channel, event.event.type)) continue;
    if (breachEvent ? told.length === 0 : !atLeast("info", channel.minSeverity)) continue;
    const message = channelMessage(event.event, {
      eventId: event.id,
      severity: breachEvent ? highest(told.map((finding) => finding.severity)) : "info",
      occurredAt: event.createdAt,
      findings: told,
      appUrl: config.appUrl(),
    });
    deliveries.push({
      endpointId: endpoint.id,
      eventId: event.id,
      eventType: event.event.type,
      body: formatForChannel(channel.type, message),
      maxAttempts: endpoint.maxAttempts,
      disabled: !endpoint.enabled,
    });
  }
  return deliveries;
}

const held = (channel: ChannelRow, eventType: string) => channel.digest !== "off" && eventType === DIGEST_EVENT_TYPE;

/** The breach instances the batch's breach events name, with their catalogue breach's facts. */
async function breachInstances(tx: BulkTransaction, events: readonly MergedEvent[]): Promise<Map<string, InstanceRow>> {
  const ids = new Set<string>();
  for (const { event } of events) if ("breaches" in event.data) for (const breach of event.data.breaches) ids.add(breach.uuid);
  if (ids.size === 0) return new Map();
  const rows = await tx.query<InstanceRow>(
    `SELECT cb.id::text, cb.breach_id::text AS "breachId", b.data_classes AS "dataClasses", b.is_sensitive AS "isSensitive",
            b.is_stealer_log AS "isStealerLog"
     FROM customer_breaches cb JOIN breaches b ON b.id = cb.breach_id WHERE cb.id = ANY($1::uuid[])`,
    [[...ids]],
  );
  return new Map(rows.map((row) => [row.id, row]));
}

function findingsFor(event: MergedEvent, channel: ChannelRow, instances: Map<string, InstanceRow>, prospect: boolean): Planned["findings"] {
  if (!("breaches" in event.event.data) || !event.customerId) return [];
  const customerId = event.customerId;
  const findings: Planned["findings"] = [];
  for (const breach of event.event.data.breaches) {
    const instance = instances.get(breach.uuid);
    if (!instance) continue;
    const severity = findingSeverity(event.event.type, instance);
    if (!atLeast(severity, channel.minSeverity)) continue;
    const emails = [...new Set(breach.emails.map((email) => email.toLowerCase()))];
    findings.push({
      finding: {
        breachInstanceId: breach.uuid,
        breachName: prospect ? null : breach.name,
        dataClasses: prospect ? [] : [...instance.dataClasses],
        severity,
        emails,
      },
      candidates: emails.map((email) => ({
        channelId: channel.id,
        customerId,
        email,
        breachId: instance.breachId,
        eventType: event.event.type,
        held: held(channel, event.event.type),
      })),
    });
  }
  return findings;
}
