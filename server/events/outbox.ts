import type { Prisma, Queryable } from "../db/client";

/** The event types of the current delivery protocol (docs/webhooks.md, "Events"). */
export const EVENT_TYPES = [
  "customer.created",
  "customer.deleted",
  "customer.asset.added",
  "customer.asset.removed",
  "customer.breach.found",
  "customer.breach.resolved",
  "customer.breach.unresolved",
  "customer.domain.verified",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Shapes shared by the event payloads of the current protocol. */
export interface CustomerRef {
  uuid: string;
  name: string;
  reference: string;
}
export interface AssetRef {
  uuid: string;
  type: "domain" | "email";
  value: string;
}
export interface BreachSummary {
  /** The breach instance's uuid (what breach/status takes as breachId). */
  uuid: string;
  name: string;
  emails: string[];
  /**
   * customer.breach.found of a stealer-log breach, full payloads only: the websites captured for
   * those addresses, sorted (the redacted shape never carries it).
   */
  websiteDomains?: string[];
}

export interface EventData {
  "customer.created": { customer: CustomerRef };
  "customer.deleted": { customer: CustomerRef };
  "customer.asset.added": { customer: CustomerRef; assets: AssetRef[] };
  "customer.asset.removed": { customer: CustomerRef; assets: AssetRef[] };
  "customer.breach.found": { customer: CustomerRef; breaches: BreachSummary[] };
  "customer.breach.resolved": { customer: CustomerRef; breaches: BreachSummary[] };
  "customer.breach.unresolved": { customer: CustomerRef; breaches: BreachSummary[] };
  "customer.domain.verified": {
    customer: CustomerRef;
    domain: string;
    method: "dns" | "email" | "staff" | "directory";
    verifiedAt: string;
  };
}

/** An event as stored: its type with the matching payload. */
export type EventPayload = { [K in EventType]: { type: K; data: EventData[K] } }[EventType];

export function customerRef(customer: { id: string; companyName: string; reference: string }): CustomerRef {
  return { uuid: customer.id, name: customer.companyName, reference: customer.reference };
}

/**
 * Records one logical event in the outbox. Call it with the transaction that makes the change
 * the event reports, so the event exists exactly when the change does (transactional outbox).
 * The row's id is the event's idempotency token: every delivery of it, on every attempt and
 * to every endpoint, carries the same one. `data` is the full payload; delivery decides what
 * each receiver may see (e.g. the redacted shape for prospect customers).
 */
export async function recordEvent<T extends EventType>(
  tx: Queryable,
  event: { type: T; partnerId: string; customerId?: string; data: EventData[T] },
): Promise<string> {
  const row = await tx.outboxEvent.create({
    data: {
      type: event.type,
      partnerId: event.partnerId,
      customerId: event.customerId ?? null,
      payload: event.data as unknown as Prisma.InputJsonValue,
    },
    select: { id: true },
  });
  return row.id;
}

/** One event as recordEvent takes it. */
export type NewEvent = { [K in EventType]: { type: K; partnerId: string; customerId?: string; data: EventData[K] } }[EventType];

/**
 * recordEvent for many events in one statement (incremental matching's pages): the rows are
 * written in the given order (their `sequence`, so delivery order, is that order). Returns their
 * ids in the same order.
 */
export async function recordEvents(tx: Queryable, events: readonly NewEvent[]): Promise<string[]> {
  if (events.length === 0) return [];
  const rows = await tx.$queryRaw<Array<{ id: string; n: bigint }>>`
    WITH event AS (
      SELECT e.type, e.partner_id, e.customer_id, e.payload, e.n
      FROM unnest(${events.map((event) => event.type)}::text[], ${events.map((event) => event.partnerId)}::uuid[],
                  ${events.map((event) => event.customerId ?? "")}::text[], ${events.map((event) => JSON.stringify(event.data))}::jsonb[])
           WITH ORDINALITY AS e(type, partner_id, customer_id, payload, n)
    ), inserted AS (
      INSERT INTO outbox_events (type, partner_id, customer_id, payload)
      SELECT type, partner_id, nullif(customer_id, '')::uuid, payload FROM event ORDER BY n
      RETURNING id, sequence
    )
    SELECT id::text, row_number() OVER (ORDER BY sequence) AS n FROM inserted`;
  const ids: string[] = [];
  for (const row of rows) ids[Number(row.n) - 1] = row.id;
  return ids;
}
