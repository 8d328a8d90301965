import { z } from "zod";
import { inBulkTransaction, type BulkTransaction } from "../db/bulk-write";
import type { Db } from "../db/client";
import { toLegacyEvents, type LegacyEvent } from "../events/legacy";
import { mergeEvents, type MergedEvent, type StoredEvent } from "../events/merge";
import { parseEventPayload } from "../events/payloads";
import { currentProtocolData, isBreachEvent } from "../events/redaction";
import { log } from "../log";
import { currentProtocolBody, legacyProtocolBody } from "./bodies";
import { channelDeliveries } from "./channels/routing";
import { ENDPOINT_DISABLED } from "./delivery-engine/failure-messages";

/** Outbox events routed per transaction (and the most merged together). */
export const ROUTE_BATCH_SIZE = 200;

interface OutboxRow {
  id: string;
  type: string;
  partnerId: string;
  customerId: string | null;
  payload: unknown;
  createdAt: Date;
}

interface RoutableEndpoint {
  id: string;
  partnerId: string | null;
  distributorId: string | null;
  protocol: "current" | "legacy" | "channel";
  eventTypes: string[];
  maxAttempts: number;
  enabled: boolean;
}

interface CustomerFacts {
  prospect: boolean;
  monitoredEmails: number;
}

/**
 * Turns unrouted outbox events into deliveries (docs/webhooks.md, "From event to delivery"): one per endpoint of the
 * event's partner and of the partner's distributor that subscribes to the event (for
 * earlier-protocol endpoints: to its legacy event; for channels: channels/routing.ts). A disabled endpoint's delivery is written
 * `failed` at once, without a request, so nothing that happened while it was off is lost: once
 * re-enabled, its owner recovers the window (docs/webhooks.md, "Recovering failed deliveries"). The events are claimed with FOR UPDATE SKIP
 * LOCKED and marked routed in the same transaction as their deliveries are written, so each
 * event is routed exactly once however many workers run. breach.found events of one customer
 * in the same batch are merged. Returns how many events and deliveries it handled.
 */
export async function routePendingEvents(db: Db, { limit = ROUTE_BATCH_SIZE } = {}): Promise<{ events: number; deliveries: number }> {
  // On the driver (one transaction, four statements): routing is on the path of every event, and
  // Prisma's query pipeline cost more than the statements themselves (docs/measures.md). By index
  // only: after a burst, stale statistics had each read sort every unrouted event.
  return inBulkTransaction(
    db,
    async (tx) => {
      const rows = await tx.query<OutboxRow>(
        `SELECT id::text, type, partner_id::text AS "partnerId", customer_id::text AS "customerId", payload, created_at AS "createdAt"
         FROM outbox_events WHERE routed_at IS NULL
         -- the (routed_at, sequence) index's own order: IS NULL on its first column gives none by sequence alone
         ORDER BY routed_at, sequence
         LIMIT $1::int
         FOR UPDATE SKIP LOCKED`,
        [limit],
      );
      if (rows.length === 0) return { events: 0, deliveries: 0 };

      const events = mergeEvents(rows.flatMap(toStoredEvent));
      const targets = await endpointsOf(tx, [...new Set(events.map((event) => event.partnerId))]);
      const deliveries: NewDelivery[] = [];
      const createdAt = new Date();
      if (targets.size > 0) {
        const facts = await customerFacts(tx, events);
        for (const event of events) {
          const endpoints = targets.get(event.partnerId)?.filter((endpoint) => endpoint.protocol !== "channel");
          if (endpoints) deliveries.push(...deliveriesOrNone(event, endpoints, facts, createdAt));
        }
        const channelsOf = (partnerId: string) => targets.get(partnerId)?.filter((endpoint) => endpoint.protocol === "channel") ?? [];
        const isProspect = (customerId: string | null) => (customerId ? facts.get(customerId)?.prospect : undefined) ?? true;
        deliveries.push(...(await channelDeliveries(tx, events, channelsOf, isProspect)));
      }
      await insertDeliveriesAndMarkRouted(
        tx,
        deliveries,
        createdAt,
        rows.map((row) => row.id),
      );
      return { events: rows.length, deliveries: deliveries.length };
    },
    { indexScans: true },
  );
}

/** The endpoints each partner's events go to: the partner's own and its distributor's. */
async function endpointsOf(tx: BulkTransaction, partnerIds: string[]): Promise<Map<string, RoutableEndpoint[]>> {
  const rows = await tx.query<RoutableEndpoint & { forPartner: string }>(
    `SELECT p.id::text AS "forPartner", e.id::text, e.partner_id::text AS "partnerId", e.distributor_id::text AS "distributorId",
            e.protocol::text AS protocol, e.event_types AS "eventTypes", e.max_attempts AS "maxAttempts", e.enabled
     FROM partners p
     -- the partner's endpoints and its distributor's, each through its own index
     CROSS JOIN LATERAL (SELECT * FROM webhook_endpoints WHERE partner_id = p.id
                         UNION ALL
                         SELECT * FROM webhook_endpoints WHERE distributor_id = p.distributor_id) e
     WHERE p.id = ANY($1::uuid[])
     ORDER BY e.created_at, e.id`,
    [partnerIds],
  );
  const targets = new Map<string, RoutableEndpoint[]>();
  for (const { forPartner, ...endpoint } of rows) {
    const list = targets.get(forPartner) ?? [];
    list.push(endpoint);
    targets.set(forPartner, list);
  }
  return targets;
}

interface NewDelivery {
  endpointId: string;
  /** Also the delivery's idempotency token. */
  eventId: string;
  eventType: string;
  body: string;
  maxAttempts: number;
  /** The endpoint is disabled: the delivery is recorded as failed, never sent. */
  disabled: boolean;
}

/**
 * One statement for a batch's deliveries and its events marked routed (the client's createMany
 * costs more CPU than the insert itself), the deliveries in the order given, so their sequence
 * follows the events' order. Due at once.
 */
async function insertDeliveriesAndMarkRouted(
  tx: BulkTransaction,
  deliveries: readonly NewDelivery[],
  createdAt: Date,
  eventIds: readonly string[],
): Promise<void> {
  await tx.execute(
    `WITH inserted AS (
       INSERT INTO webhook_deliveries (endpoint_id, event_id, idempotency_token, event_type, body, max_attempts, next_attempt_at, created_at,
                                       status, last_error)
       SELECT d.endpoint_id, d.event_id, d.event_id, d.event_type, d.body, d.max_attempts, $7::timestamptz, $7::timestamptz,
              (CASE WHEN d.disabled THEN 'failed' ELSE 'pending' END)::webhook_delivery_status,
              CASE WHEN d.disabled THEN $8 END
       FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::int[], $6::boolean[])
         WITH ORDINALITY AS d(endpoint_id, event_id, event_type, body, max_attempts, disabled, position)
       ORDER BY d.position
     )
     UPDATE outbox_events SET routed_at = now() WHERE id = ANY($9::uuid[])`,
    [
      deliveries.map((d) => d.endpointId),
      deliveries.map((d) => d.eventId),
      deliveries.map((d) => d.eventType),
      deliveries.map((d) => d.body),
      deliveries.map((d) => d.maxAttempts),
      deliveries.map((d) => d.disabled),
      createdAt,
      ENDPOINT_DISABLED,
      eventIds,
    ],
  );
}

function toStoredEvent(row: OutboxRow): StoredEvent[] {
  const parsed = parseEventPayload(row.type, row.payload);
  if ("problem" in parsed) {
    log.error("outbox event not delivered: its payload does not match its type", {
      eventId: row.id,
      type: row.type,
      problem: parsed.problem,
    });
    return [];
  }
  return [{ id: row.id, partnerId: row.partnerId, customerId: row.customerId, createdAt: row.createdAt, event: parsed.event }];
}

async function customerFacts(tx: BulkTransaction, events: MergedEvent[]): Promise<Map<string, CustomerFacts>> {
  const ids = [...new Set(events.flatMap((event) => (event.customerId ? [event.customerId] : [])))];
  const customers = await tx.query<{ id: string; status: string; monitoredEmails: number }>(
    `SELECT id::text, status::text, monitored_email_count AS "monitoredEmails" FROM customers WHERE id = ANY($1::uuid[])`,
    [ids],
  );
  return new Map(
    customers.map((customer) => [customer.id, { prospect: customer.status === "prospect", monitoredEmails: customer.monitoredEmails }]),
  );
}

/** An event whose body does not match its documented schema is reported and not delivered, like a malformed outbox row. */
function deliveriesOrNone(...args: Parameters<typeof deliveriesOf>): NewDelivery[] {
  try {
    return deliveriesOf(...args);
  } catch (error) {
    if (!(error instanceof z.ZodError)) throw error;
    const [event] = args;
    const issue = error.issues[0];
    log.error("outbox event not delivered: its body does not match the schema of its type", {
      eventId: event.id,
      type: event.event.type,
      problem: issue ? `${issue.path.join(".") || "body"}: ${issue.message}` : error.message,
    });
    return [];
  }
}

function deliveriesOf(event: MergedEvent, targets: RoutableEndpoint[], facts: Map<string, CustomerFacts>, createdAt: Date): NewDelivery[] {
  const customer = event.customerId ? facts.get(event.customerId) : undefined;
  // A customer that no longer exists cannot be shown to be past prospect: its breach events stay redacted.
  const redacted = isBreachEvent(event.event.type) && (customer?.prospect ?? true);
  const common = { eventId: event.id };
  let currentBody: string | undefined;
  let legacyEvents: LegacyEvent[] | undefined;
  const rows: NewDelivery[] = [];
  for (const endpoint of targets) {
    if (endpoint.protocol === "current") {
      if (!endpoint.eventTypes.includes(event.event.type)) continue;
      currentBody ??= currentProtocolBody(
        event.id,
        event.event.type,
        currentProtocolData(event.event, { partnerId: event.partnerId, redacted }),
        createdAt,
      );
      rows.push({
        ...common,
        endpointId: endpoint.id,
        eventType: event.event.type,
        body: currentBody,
        maxAttempts: endpoint.maxAttempts,
        disabled: !endpoint.enabled,
      });
      continue;
    }
    legacyEvents ??= toLegacyEvents(event.event, { occurredAt: event.createdAt, emailsScanned: customer?.monitoredEmails ?? 0, redacted });
    for (const legacy of legacyEvents) {
      if (!endpoint.eventTypes.includes(legacy.event)) continue;
      const body = legacyProtocolBody(legacy.event, legacy.data, createdAt);
      rows.push({
        ...common,
        endpointId: endpoint.id,
        eventType: legacy.event,
        body,
        maxAttempts: endpoint.maxAttempts,
        disabled: !endpoint.enabled,
      });
    }
  }
  return rows;
}
