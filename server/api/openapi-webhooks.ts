import { z } from "zod";
import { config } from "../config";
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from "zod-openapi";
import { LEGACY_EVENT_TYPES, type LegacyEventType } from "../events/legacy";
import { EVENT_TYPES, type EventType } from "../events/outbox";
import { CURRENT_BODY_SCHEMAS, LEGACY_BODY_SCHEMAS } from "../webhooks/bodies";
import { CURRENT_TIMEOUT_MS, LEGACY_TIMEOUT_MS } from "../webhooks/delivery-engine/limits";

/**
 * The OpenAPI 3.1 `webhooks` section: one POST per event of each protocol, keyed by the event's
 * name on the wire (`type`, or `event` / X-Service-Event), whose request body is the very zod
 * schema every body is built with (server/webhooks/bodies.ts), with the headers of its protocol
 * and signature scheme (docs/webhooks.md).
 */
export const CURRENT_EVENTS_TAG = "Webhook events";
export const LEGACY_EVENTS_TAG = "Webhook events (earlier protocol)";

const HEX_SHA256 = /^[0-9a-f]{64}$/;

const EVENT_SUMMARIES: Record<EventType, string> = {
  "customer.created": "A customer was onboarded",
  "customer.deleted": "A customer was offboarded",
  "customer.asset.added": "Monitored domains or e-mail addresses were added (by the partner, or found by a scan)",
  "customer.asset.removed": "Monitored domains or e-mail addresses were removed",
  "customer.breach.found": "Scans found the customer's addresses in breaches new to it",
  "customer.breach.resolved": "A breach instance was marked resolved",
  "customer.breach.unresolved": "A breach instance was marked unresolved again",
  "customer.domain.verified":
    "A customer's domain was verified (DNS, e-mail link, staff or the customer's directory); what was withheld at it follows",
};

const LEGACY_EVENT_SUMMARIES: Record<LegacyEventType, string> = {
  "breach.new": "Breaches new to the customer were found (from customer.breach.found)",
  "breach.resolved": "A breach was marked resolved (one event per breach)",
  "breach.unresolved": "A breach was marked unresolved again (one event per breach)",
  "email.added": "E-mail addresses were added (not sent when only domains changed)",
  "email.removed": "E-mail addresses were removed (not sent when only domains changed)",
};

const currentHeaders = z.object({
  "x-signature": z.string().regex(HEX_SHA256).optional().meta({
    description: "Scheme `x-signature` (the default): hex HMAC-SHA256 of the raw body, keyed with the organization's active signing token",
  }),
  "x-token": z
    .string()
    .optional()
    .meta({ format: "uuid", description: "Scheme `x-signature`: a new UUID per request, which the answer's X-Signature covers" }),
  "webhook-id": z
    .string()
    .optional()
    .meta({ format: "uuid", description: "Scheme `standard-webhooks`: the event's idempotencyToken (the same on every attempt)" }),
  "webhook-timestamp": z
    .string()
    .regex(/^\d+$/)
    .optional()
    .meta({ description: "Scheme `standard-webhooks`: when this request was sent, in seconds since 1970-01-01 UTC" }),
  "webhook-signature": z
    .string()
    .regex(/^v1,[A-Za-z0-9+/]+=*( v1,[A-Za-z0-9+/]+=*)?$/)
    .optional()
    .meta({
      description:
        'Scheme `standard-webhooks`: "v1," + base64 HMAC-SHA256 over "{webhook-id}.{webhook-timestamp}.{body}", keyed with the ' +
        "UTF-8 bytes of the active signing token; while a fallback secret exists, a second space-separated signature made with it",
    }),
});

const RETRIES =
  "Anything else (another status, a redirect, which is not followed, or no answer in time) fails the attempt; it is retried " +
  "while the endpoint's attempts last ([retry schedule](/docs/webhooks#retry-schedule)). A 429 or 503 with Retry-After delays the next attempt; 410 Gone disables the endpoint.";

function currentOperation(type: EventType): ZodOpenApiOperationObject {
  return {
    operationId: `event-${type.replaceAll(".", "-")}`,
    tags: [CURRENT_EVENTS_TAG],
    summary: EVENT_SUMMARIES[type],
    // The service calls the receiver: none of the API's credentials; the signature headers authenticate it.
    security: [],
    description:
      "Sent to the URL of each enabled endpoint of the partner, or of its distributor, subscribed to this type. Signed by the " +
      "endpoint's `signatureScheme`: `x-signature` (X-Signature, X-Token) or `standard-webhooks` (webhook-id, webhook-timestamp, webhook-signature)." +
      (type.startsWith("customer.breach.")
        ? " For a prospect customer `data` is the redacted shape (no breach names or other details)."
        : ""),
    requestParams: { header: currentHeaders },
    requestBody: { required: true, content: { "application/json": { schema: CURRENT_BODY_SCHEMAS[type] } } },
    responses: {
      "2XX": {
        description:
          `Received, within ${CURRENT_TIMEOUT_MS / 1000} s. Scheme \`x-signature\`: the answer must carry X-Signature = hex ` +
          'HMAC-SHA256 over X-Token + ":" + the raw body, keyed with the token the request was signed with. Scheme `standard-webhooks`: any 2xx.',
        headers: z.object({
          "x-signature": z.string().regex(HEX_SHA256).optional().meta({ description: "Scheme `x-signature` only (required there)" }),
        }),
      },
      default: { description: RETRIES },
    },
  };
}

function legacyOperation(event: LegacyEventType): ZodOpenApiOperationObject {
  const prefix = config.webhookLegacyHeaderPrefix().toLowerCase();
  return {
    operationId: `legacy-event-${event.replaceAll(".", "-")}`,
    tags: [LEGACY_EVENTS_TAG],
    summary: LEGACY_EVENT_SUMMARIES[event],
    security: [],
    description: "Sent to each enabled earlier-protocol endpoint (/api/integrations/webhooks) of the partner subscribed to this event.",
    requestParams: {
      header: z.object({
        [`${prefix}-event`]: z
          .literal(event)
          .meta({ description: "The event's name (the prefix is WEBHOOK_LEGACY_HEADER_PREFIX, X-Service by default)" }),
        [`${prefix}-signature`]: z
          .string()
          .regex(/^sha256=[0-9a-f]{64}$/)
          .meta({ description: '"sha256=" + hex HMAC-SHA256 of the raw body, keyed with the endpoint\'s own secret' }),
      }),
    },
    requestBody: { required: true, content: { "application/json": { schema: LEGACY_BODY_SCHEMAS[event] } } },
    responses: {
      "2XX": { description: `Received, within ${LEGACY_TIMEOUT_MS / 1000} s` },
      default: { description: RETRIES },
    },
  };
}

/** The `webhooks` object and the component schemas it refers to. */
export function webhookEventsSection(): { webhooks: Record<string, unknown>; schemas: Record<string, unknown> } {
  const webhooks: ZodOpenApiPathsObject = {};
  for (const type of EVENT_TYPES) webhooks[type] = { post: currentOperation(type) };
  for (const event of LEGACY_EVENT_TYPES) webhooks[event] = { post: legacyOperation(event) };
  const document = createDocument({ openapi: "3.1.0", info: { title: "webhooks", version: "1" }, webhooks });
  return { webhooks: document.webhooks ?? {}, schemas: document.components?.schemas ?? {} };
}
