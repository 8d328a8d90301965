import { z } from "zod";
import type { ChannelRecord } from "../../../webhooks/channels/channels";
import { CHANNEL_SEVERITIES } from "../../../webhooks/channels/severity";
import { CHANNEL_TYPES } from "../../../webhooks/channels/targets";
import { endpointIdInput, eventTypeSchema } from "../webhooks/schemas";

const isoDateTime = () => z.string().meta({ format: "date-time", example: "2026-03-18T12:00:00.000Z" });

export const channelTypeSchema = z.enum(CHANNEL_TYPES, { error: `type must be one of ${CHANNEL_TYPES.join(", ")}` });
export const minSeveritySchema = z.enum(CHANNEL_SEVERITIES, { error: `minSeverity must be one of ${CHANNEL_SEVERITIES.join(", ")}` });
export const DIGEST_INVALID = 'digest must be "off", "daily" or "weekly"';
const digestInput = z
  .enum(["off", "daily", "weekly"], { error: DIGEST_INVALID })
  .optional()
  .meta({
    description:
      "Slack and Teams: off (default) sends each finding as it is found; daily or weekly sends the new exposures in one summary per customer " +
      "(07:00 UTC; weekly on Mondays). Syslog channels take only off.",
  });
const eventTypesInput = z
  .array(eventTypeSchema, { error: "eventTypes is required" })
  .min(1, { error: "At least one event type is required" });
const portInput = z
  .number({ error: "port must be an integer from 1 to 65535" })
  .int({ error: "port must be an integer from 1 to 65535" })
  .min(1, { error: "port must be an integer from 1 to 65535" })
  .max(65535, { error: "port must be an integer from 1 to 65535" });

const targetFields = {
  url: z
    .string()
    .optional()
    .meta({ description: "Slack and Teams: the incoming or Workflows webhook URL (https, public). Never shown again in full." }),
  host: z.string().optional().meta({ description: "Syslog: the receiver's host name or IP address (public)", example: "siem.example.com" }),
  port: portInput.optional().meta({ description: "Syslog: the TCP port", example: 6514 }),
  tls: z.boolean().optional().meta({ description: "Syslog: TLS (RFC 5425); default false" }),
  caCertificate: z
    .string()
    .optional()
    .meta({ description: "Syslog over TLS: PEM certificate(s) to trust for the receiver instead of the public CAs" }),
};

export const channelCreateInput = z.object({
  type: channelTypeSchema,
  ...targetFields,
  eventTypes: eventTypesInput,
  minSeverity: minSeveritySchema.optional().meta({ description: "The lowest severity the channel takes (default info)" }),
  digest: digestInput,
  enabled: z.boolean().optional().meta({ description: "Default true" }),
});

export const channelUpdateInput = z
  .object({
    id: endpointIdInput,
    ...targetFields,
    eventTypes: eventTypesInput.optional(),
    minSeverity: minSeveritySchema.optional(),
    digest: digestInput,
    enabled: z.boolean().optional(),
  })
  .refine(({ id: _id, ...changes }) => Object.values(changes).some((value) => value !== undefined), {
    error: "At least one of url, host, port, tls, caCertificate, eventTypes, minSeverity, digest or enabled is required",
  });

export const channelSchema = z
  .object({
    id: z.string().meta({ format: "uuid" }),
    type: channelTypeSchema,
    url: z.string().nullable().meta({ description: "Chat channels: the webhook URL masked; syslog: null" }),
    host: z.string().nullable(),
    port: z.number().int().nullable(),
    tls: z.boolean(),
    eventTypes: z.array(z.string()),
    minSeverity: minSeveritySchema,
    digest: z
      .enum(["off", "daily", "weekly"])
      .meta({ description: "off: each finding at once; daily or weekly: one summary per customer" }),
    enabled: z.boolean(),
    maxAttempts: z.number().int(),
    lastSuccessAt: isoDateTime().nullable(),
    consecutiveFailures: z.number().int(),
    failingSince: isoDateTime().nullable(),
    disabledKind: z.enum(["failing", "gone", "manual"]).nullable(),
    disabledReason: z.string().nullable(),
    disabledAt: isoDateTime().nullable(),
    createdAt: isoDateTime(),
    updatedAt: isoDateTime(),
  })
  .meta({ id: "IntegrationChannel" });

const iso = (value: Date | null) => value?.toISOString() ?? null;

export function channelResponse(channel: ChannelRecord): z.infer<typeof channelSchema> {
  return {
    id: channel.id,
    type: channel.type,
    url: channel.url,
    host: channel.host,
    port: channel.port,
    tls: channel.tls,
    eventTypes: channel.eventTypes,
    minSeverity: channel.minSeverity,
    digest: channel.digest,
    enabled: channel.enabled,
    maxAttempts: channel.maxAttempts,
    lastSuccessAt: iso(channel.lastSuccessAt),
    consecutiveFailures: channel.consecutiveFailures,
    failingSince: iso(channel.failingSince),
    disabledKind: channel.disabledKind,
    disabledReason: channel.disabledReason,
    disabledAt: iso(channel.disabledAt),
    createdAt: channel.createdAt.toISOString(),
    updatedAt: channel.updatedAt.toISOString(),
  };
}
