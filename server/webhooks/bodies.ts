import { z } from "zod";
import { LEGACY_EVENT_DATA, LEGACY_EVENT_TYPES, type LegacyEventType } from "../events/legacy";
import { EVENT_TYPES, type EventType } from "../events/outbox";
import { SENT_EVENT_DATA } from "../events/payloads";

/**
 * The raw JSON bodies of both protocols, built once when the delivery is created and sent
 * unchanged on every attempt (so the idempotency token and timestamp never change). Each body
 * is the output of its event's schema below: what does not match fails here instead of going
 * out, and the OpenAPI document's `webhooks` section is generated from the same schemas.
 */

/** "customer.breach.found" -> "CustomerBreachFound". */
function pascalCase(name: string): string {
  return name
    .split(".")
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join("");
}

function currentBodySchema(type: EventType) {
  return z
    .strictObject({
      idempotencyToken: z.string().meta({
        format: "uuid",
        description: "The event's id: the same on every attempt and to every endpoint; deduplicate on it",
      }),
      type: z.literal(type),
      data: SENT_EVENT_DATA[type],
      timestamp: z.number().int().meta({ description: "When the delivery was created, in milliseconds since 1970-01-01 UTC" }),
    })
    .meta({ id: `${pascalCase(type)}Event` });
}

function legacyBodySchema<E extends LegacyEventType>(event: E) {
  return z
    .strictObject({
      event: z.literal(event),
      data: LEGACY_EVENT_DATA[event],
      created_at: z.iso.datetime().meta({ description: "When the delivery was created" }),
    })
    .meta({ id: `Legacy${pascalCase(event)}Event` });
}

/** Current protocol: {idempotencyToken, type, data, timestamp}, per event type. */
export const CURRENT_BODY_SCHEMAS = Object.fromEntries(EVENT_TYPES.map((type) => [type, currentBodySchema(type)])) as {
  [T in EventType]: ReturnType<typeof currentBodySchema>;
};

/** Earlier protocol: {event, data, created_at}, per event. */
export const LEGACY_BODY_SCHEMAS = Object.fromEntries(LEGACY_EVENT_TYPES.map((event) => [event, legacyBodySchema(event)])) as {
  [E in LegacyEventType]: ReturnType<typeof legacyBodySchema<E>>;
};

/** Current protocol: `timestamp` is in ms, when the delivery record was created. */
export function currentProtocolBody(idempotencyToken: string, type: EventType, data: unknown, createdAt: Date): string {
  return JSON.stringify(CURRENT_BODY_SCHEMAS[type].parse({ idempotencyToken, type, data, timestamp: createdAt.getTime() }));
}

/** Earlier protocol: `created_at` is ISO 8601, when the delivery record was created. */
export function legacyProtocolBody(event: LegacyEventType, data: unknown, createdAt: Date): string {
  return JSON.stringify(LEGACY_BODY_SCHEMAS[event].parse({ event, data, created_at: createdAt.toISOString() }));
}
