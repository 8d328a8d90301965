import { z } from "zod";
import { LEGACY_EVENT_TYPES } from "../../../events/legacy";
import { EVENT_TYPES } from "../../../events/outbox";
import type { DeliveryRecord } from "../../../webhooks/delivery-log";
import { SIGNATURE_SCHEMES, type EndpointRecord } from "../../../webhooks/endpoints";

const isoDateTime = () => z.string().meta({ format: "date-time", example: "2026-03-18T12:00:00.000Z" });
const uuidString = () => z.string().meta({ format: "uuid", example: "550e8400-e29b-41d4-a716-446655440000" });

export const eventTypeSchema = z.enum(EVENT_TYPES, { error: `Unknown event type; expected one of ${EVENT_TYPES.join(", ")}` });
export const legacyEventSchema = z.enum(LEGACY_EVENT_TYPES, {
  error: `Unknown event; expected one of ${LEGACY_EVENT_TYPES.join(", ")}`,
});

export const urlInput = z.string({ error: "URL is required" }).meta({ example: "https://hooks.example.com/exposure" });
export const maxAttemptsInput = z
  .number({ error: "maxAttempts must be an integer from 1 to 3" })
  .int({ error: "maxAttempts must be an integer from 1 to 3" })
  .min(1, { error: "maxAttempts must be an integer from 1 to 3" })
  .max(3, { error: "maxAttempts must be an integer from 1 to 3" });

export const signatureSchemeInput = z.enum(SIGNATURE_SCHEMES, {
  error: `signatureScheme must be one of ${SIGNATURE_SCHEMES.map((scheme) => `"${scheme}"`).join(", ")}`,
});
const SIGNATURE_SCHEME_DESCRIPTION =
  'How deliveries are signed: "x-signature" (X-Signature and X-Token; the receiver signs its answer) or ' +
  '"standard-webhooks" (webhook-id, webhook-timestamp, webhook-signature; any 2xx is success). ' +
  "See [Receive webhooks](/docs/webhooks#receive-webhooks).";

/** A current-protocol endpoint's fields on create (the partner and distributor APIs, the admin UI). */
export const endpointCreateInput = z.object({
  url: urlInput,
  eventTypes: z.array(eventTypeSchema, { error: "eventTypes is required" }).min(1, { error: "At least one event type is required" }),
  enabled: z.boolean().optional().meta({ description: "Default true" }),
  maxAttempts: maxAttemptsInput.optional().meta({ description: "Attempts per event, 1 to 3 (default 3)" }),
  signatureScheme: signatureSchemeInput.optional().meta({ description: `${SIGNATURE_SCHEME_DESCRIPTION} Default "x-signature".` }),
});

/** Checked by the service (400 "Invalid webhook ID"), the same text on every surface. */
export const endpointIdInput = z.string().meta({ format: "uuid", description: "The endpoint's id" });

/** A current-protocol endpoint's changes: any of the fields, at least one. */
export const endpointUpdateInput = z
  .object({
    id: endpointIdInput,
    url: urlInput.optional(),
    eventTypes: z.array(eventTypeSchema).min(1, { error: "At least one event type is required" }).optional(),
    enabled: z.boolean().optional(),
    maxAttempts: maxAttemptsInput.optional(),
    signatureScheme: signatureSchemeInput.optional().meta({ description: SIGNATURE_SCHEME_DESCRIPTION }),
  })
  .refine(
    (input) => [input.url, input.eventTypes, input.enabled, input.maxAttempts, input.signatureScheme].some((value) => value !== undefined),
    { error: "At least one of url, eventTypes, enabled, maxAttempts or signatureScheme is required" },
  );

/**
 * The partner v1 and distributor REST bodies (docs/webhooks.md, "Field names"): the fields above,
 * with `events` as another name of `eventTypes` and `active` of `enabled` (an unknown key is refused
 * like on every REST write: server/api/rest/body-fields.ts).
 * Both names of one pair with different values is a 400; the names are merged
 * before the service sees them, so an update is applied whole or not at all.
 */
const FIELD_ALIASES = [
  ["events", "eventTypes"],
  ["active", "enabled"],
] as const;

type AliasedFields = { events?: string[]; eventTypes?: string[]; active?: boolean; enabled?: boolean };

function sameValue(a: unknown, b: unknown): boolean {
  const canonical = (value: unknown) => JSON.stringify(Array.isArray(value) ? [...new Set(value)].sort() : value);
  return canonical(a) === canonical(b);
}

function refuseDifferingAliases(input: AliasedFields, context: z.RefinementCtx): void {
  for (const [alias, field] of FIELD_ALIASES) {
    if (input[alias] !== undefined && input[field] !== undefined && !sameValue(input[alias], input[field])) {
      context.addIssue({ code: "custom", path: [alias], message: `${alias} and ${field} name the same field and differ` });
    }
  }
}

function mergeAliases<T extends AliasedFields>({ events, active, ...input }: T): Omit<T, "events" | "active"> {
  return { ...input, eventTypes: input.eventTypes ?? events, enabled: input.enabled ?? active };
}

const eventTypesInput = z.array(eventTypeSchema).min(1, { error: "At least one event type is required" });

export const endpointCreateBody = z
  .object({
    ...endpointCreateInput.shape,
    eventTypes: eventTypesInput.optional().meta({ description: "Required (or `events`)" }),
    events: eventTypesInput.optional().meta({ description: "Another name of eventTypes" }),
    active: z.boolean().optional().meta({ description: "Another name of enabled" }),
  })
  .superRefine(refuseDifferingAliases)
  .transform(mergeAliases)
  .superRefine((input, context) => {
    if (input.eventTypes === undefined) context.addIssue({ code: "custom", path: ["eventTypes"], message: "eventTypes is required" });
  })
  .transform((input) => ({ ...input, eventTypes: input.eventTypes! }));

export const endpointUpdateBody = z
  .object({
    id: endpointIdInput,
    url: urlInput.optional(),
    eventTypes: eventTypesInput.optional(),
    events: eventTypesInput.optional().meta({ description: "Another name of eventTypes" }),
    enabled: z.boolean().optional(),
    active: z.boolean().optional().meta({ description: "Another name of enabled" }),
    maxAttempts: maxAttemptsInput.optional(),
    signatureScheme: signatureSchemeInput.optional().meta({ description: SIGNATURE_SCHEME_DESCRIPTION }),
  })
  .superRefine(refuseDifferingAliases)
  .transform(mergeAliases)
  .refine(
    (input) => [input.url, input.eventTypes, input.enabled, input.maxAttempts, input.signatureScheme].some((value) => value !== undefined),
    { error: "At least one of url, eventTypes, enabled, maxAttempts or signatureScheme is required" },
  );

const disabledKindSchema = z.enum(["failing", "gone", "manual"]).nullable().meta({
  description:
    "Why the endpoint is disabled (null while enabled): failing (20 failed deliveries in a row), gone (the receiver answered 410 Gone), manual (its owner)",
});

/** A current-protocol endpoint as the API shows it (no secret). */
export const endpointSchema = z
  .object({
    id: uuidString(),
    url: z.string(),
    eventTypes: z.array(z.string()),
    enabled: z.boolean(),
    maxAttempts: z.number().int(),
    signatureScheme: z.enum(SIGNATURE_SCHEMES),
    lastSuccessAt: isoDateTime().nullable().meta({ description: "When a delivery (not a test) last succeeded" }),
    consecutiveFailures: z.number().int().meta({ description: "Failed deliveries in a row (tests excepted)" }),
    failingSince: isoDateTime().nullable().meta({ description: "When the current run of failed deliveries began; null while healthy" }),
    disabledKind: disabledKindSchema,
    disabledReason: z
      .string()
      .nullable()
      .meta({ description: "What the service saw when it disabled the endpoint (null for a manual disable)" }),
    disabledAt: isoDateTime().nullable(),
    createdAt: isoDateTime(),
    updatedAt: isoDateTime(),
  })
  .meta({ id: "WebhookEndpoint" });

export function endpointResponse(endpoint: EndpointRecord): z.infer<typeof endpointSchema> {
  return {
    id: endpoint.id,
    url: endpoint.url,
    eventTypes: endpoint.eventTypes,
    enabled: endpoint.enabled,
    maxAttempts: endpoint.maxAttempts,
    signatureScheme: endpoint.signatureScheme,
    lastSuccessAt: endpoint.lastSuccessAt?.toISOString() ?? null,
    consecutiveFailures: endpoint.consecutiveFailures,
    failingSince: endpoint.failingSince?.toISOString() ?? null,
    disabledKind: endpoint.disabledKind,
    disabledReason: endpoint.disabledReason,
    disabledAt: endpoint.disabledAt?.toISOString() ?? null,
    createdAt: endpoint.createdAt.toISOString(),
    updatedAt: endpoint.updatedAt.toISOString(),
  };
}

/** An earlier-protocol endpoint as that surface shows it (docs/webhooks.md, "Endpoint record"). */
export const legacyEndpointSchema = z
  .object({
    id: uuidString(),
    url: z.string(),
    events: z.array(z.string()),
    active: z.boolean(),
    created_at: isoDateTime(),
    updated_at: isoDateTime(),
    last_success_at: isoDateTime().nullable(),
    consecutive_failures: z.number().int(),
    failing_since: isoDateTime().nullable(),
    disabled_kind: disabledKindSchema,
    disabled_reason: z.string().nullable(),
    disabled_at: isoDateTime().nullable(),
  })
  .meta({ id: "LegacyWebhookEndpoint" });

export function legacyEndpointResponse(endpoint: EndpointRecord): z.infer<typeof legacyEndpointSchema> {
  return {
    id: endpoint.id,
    url: endpoint.url,
    events: endpoint.eventTypes,
    active: endpoint.enabled,
    created_at: endpoint.createdAt.toISOString(),
    updated_at: endpoint.updatedAt.toISOString(),
    last_success_at: endpoint.lastSuccessAt?.toISOString() ?? null,
    consecutive_failures: endpoint.consecutiveFailures,
    failing_since: endpoint.failingSince?.toISOString() ?? null,
    disabled_kind: endpoint.disabledKind,
    disabled_reason: endpoint.disabledReason,
    disabled_at: endpoint.disabledAt?.toISOString() ?? null,
  };
}

export const newSecretSchema = z
  .object({ id: uuidString(), token: z.string().meta({ description: "Shown once", example: "3f1c2b7e-0d4a-4e8b-9a55-1c2d3e4f5a6b" }) })
  .meta({ id: "NewSigningSecret" });

export const secretListItemSchema = z
  .object({ id: uuidString(), status: z.enum(["active", "fallback"]), createdAt: isoDateTime() })
  .meta({ id: "SigningSecret" });

/** Existing distributor clients send {scope: "distributor"}; accepted, optional, not needed. */
export const scopeInput = z.object({ scope: z.string().optional().meta({ example: "distributor" }) });

export const deliveryStatusSchema = z.enum(["pending", "delivering", "delivered", "failed"]);

export const deliverySchema = z
  .object({
    id: uuidString(),
    eventType: z.string(),
    idempotencyToken: uuidString(),
    status: deliveryStatusSchema,
    test: z.boolean().meta({ description: "A sample sent with POST .../test" }),
    attempts: z.array(
      z.object({
        at: isoDateTime(),
        statusCode: z.number().int().nullable(),
        durationMs: z.number().int().nullable(),
        error: z.string().nullable(),
        fallbackSecret: z.boolean().meta({ description: "The one extra request signed with the fallback secret" }),
      }),
    ),
    error: z.string().nullable(),
    nextAttemptAt: isoDateTime().nullable(),
    createdAt: isoDateTime(),
    deliveredAt: isoDateTime().nullable(),
  })
  .meta({ id: "WebhookDelivery" });

export function deliveryResponse(delivery: DeliveryRecord): z.infer<typeof deliverySchema> {
  return {
    ...delivery,
    attempts: delivery.attempts.map((attempt) => ({ ...attempt, at: attempt.at.toISOString() })),
    nextAttemptAt: delivery.nextAttemptAt?.toISOString() ?? null,
    createdAt: delivery.createdAt.toISOString(),
    deliveredAt: delivery.deliveredAt?.toISOString() ?? null,
  };
}
