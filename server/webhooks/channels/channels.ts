import type { Db } from "../../db/client";
import { badRequest } from "../../errors";
import { EVENT_TYPES } from "../../events/outbox";
import { DEFAULT_MAX_ATTEMPTS, deleteEndpoint, getEndpoint, type EndpointRecord } from "../endpoints";
import type { NoticeDigest } from "../../notifications/quiet";
import type { WebhookOwner } from "../owner";
import type { ChannelSeverity } from "./severity";
import {
  checkChatUrl,
  checkSyslogHost,
  decryptTarget,
  encryptTarget,
  targetDisplay,
  type ChannelTarget,
  type ChannelType,
} from "./targets";

/**
 * A partner's chat and SIEM channels (docs/integrations.md, "Chat and SIEM channels"). Each is
 * a webhook endpoint of protocol `channel` (so the delivery engine, its delivery log, retry,
 * recover and health serve it unchanged) and an integration_channels row of the same id.
 */
export interface ChannelInput {
  type: ChannelType;
  url?: string;
  host?: string;
  port?: number;
  tls?: boolean;
  caCertificate?: string;
  eventTypes: string[];
  minSeverity?: ChannelSeverity;
  /** Chat channels: new exposures in one daily or weekly summary per customer instead of each (syslog: off only). */
  digest?: NoticeDigest;
  enabled?: boolean;
}

export type ChannelChanges = Partial<Omit<ChannelInput, "type">>;

export interface ChannelRecord extends Omit<EndpointRecord, "protocol" | "signatureScheme" | "url"> {
  type: ChannelType;
  /** Chat channels: the webhook URL masked (it is a credential); syslog: null. */
  url: string | null;
  host: string | null;
  port: number | null;
  tls: boolean;
  minSeverity: ChannelSeverity;
  digest: NoticeDigest;
}

const partnerOwner = (partnerId: string): WebhookOwner => ({ partnerId });

async function checkedTarget(type: ChannelType, input: ChannelChanges): Promise<ChannelTarget> {
  if (type === "syslog") {
    if (input.url !== undefined) throw badRequest("Validation failed: url: A syslog channel takes host and port, not url");
    if (input.host === undefined) throw badRequest("Validation failed: host: host is required for a syslog channel");
    if (input.port === undefined) throw badRequest("Validation failed: port: port is required for a syslog channel");
    const caCertificate = input.caCertificate?.trim() || undefined;
    if (caCertificate && !caCertificate.includes("-----BEGIN CERTIFICATE-----")) {
      throw badRequest("Validation failed: caCertificate: Must be one or more PEM certificates");
    }
    return {
      type,
      host: await checkSyslogHost(input.host),
      port: input.port,
      tls: input.tls ?? false,
      ...(caCertificate ? { caCertificate } : {}),
    };
  }
  for (const field of ["host", "port", "tls", "caCertificate"] as const) {
    if (input[field] !== undefined) throw badRequest(`Validation failed: ${field}: A ${type} channel takes url, not ${field}`);
  }
  if (input.url === undefined) throw badRequest(`Validation failed: url: url is required for a ${type} channel`);
  return { type, url: await checkChatUrl(input.url) };
}

export const SYSLOG_DIGEST_REFUSED = 'A syslog channel takes each event as it happens; digest must be "off"';

/** A SIEM correlates single events: syslog channels are never summarised. */
function checkedDigest(type: ChannelType, digest: NoticeDigest | undefined): NoticeDigest | undefined {
  if (type === "syslog" && digest !== undefined && digest !== "off")
    throw badRequest(`Validation failed: digest: ${SYSLOG_DIGEST_REFUSED}`);
  return digest;
}

function eventTypesOf(eventTypes: string[]): string[] {
  const unknown = eventTypes.filter((type) => !(EVENT_TYPES as readonly string[]).includes(type));
  if (unknown.length > 0) throw badRequest(`Validation failed: eventTypes: Unknown event type; expected one of ${EVENT_TYPES.join(", ")}`);
  return [...new Set(eventTypes)];
}

export async function createChannel(db: Db, partnerId: string, input: ChannelInput): Promise<ChannelRecord> {
  const target = await checkedTarget(input.type, input);
  const digest = checkedDigest(input.type, input.digest) ?? "off";
  const eventTypes = eventTypesOf(input.eventTypes);
  const id = await db.$transaction(async (tx) => {
    const endpoint = await tx.webhookEndpoint.create({
      data: {
        partnerId,
        protocol: "channel",
        url: targetDisplay(target),
        eventTypes,
        enabled: input.enabled ?? true,
        ...(input.enabled === false ? { disabledKind: "manual" as const, disabledAt: new Date() } : {}),
        maxAttempts: DEFAULT_MAX_ATTEMPTS,
        secretCiphertext: encryptTarget(target),
      },
      select: { id: true },
    });
    await tx.integrationChannel.create({
      data: {
        id: endpoint.id,
        partnerId,
        type: input.type,
        minSeverity: input.minSeverity ?? "info",
        digest,
        ...(target.type === "syslog" ? { host: target.host, port: target.port, tls: target.tls } : {}),
      },
    });
    return endpoint.id;
  });
  return getChannel(db, partnerId, id);
}

function toRecord(
  endpoint: EndpointRecord,
  channel: {
    type: ChannelType;
    minSeverity: ChannelSeverity;
    digest: NoticeDigest;
    host: string | null;
    port: number | null;
    tls: boolean;
  },
): ChannelRecord {
  const { protocol: _protocol, signatureScheme: _scheme, url, ...rest } = endpoint;
  return { ...rest, ...channel, url: channel.type === "syslog" ? null : url };
}

export async function getChannel(db: Db, partnerId: string, id: string): Promise<ChannelRecord> {
  const endpoint = await getEndpoint(db, partnerOwner(partnerId), "channel", id);
  const channel = await db.integrationChannel.findUniqueOrThrow({
    where: { id },
    select: { type: true, minSeverity: true, digest: true, host: true, port: true, tls: true },
  });
  return toRecord(endpoint, channel);
}

export async function listChannels(db: Db, partnerId: string): Promise<ChannelRecord[]> {
  const channels = await db.integrationChannel.findMany({
    where: { partnerId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: { id: true, type: true, minSeverity: true, digest: true, host: true, port: true, tls: true },
  });
  return Promise.all(
    channels.map(async ({ id, ...channel }) => toRecord(await getEndpoint(db, partnerOwner(partnerId), "channel", id), channel)),
  );
}

/** Changes the given fields; a new url, host, port, tls or caCertificate is checked as on create. */
export async function updateChannel(db: Db, partnerId: string, id: string, changes: ChannelChanges): Promise<ChannelRecord> {
  const current = await getChannel(db, partnerId, id);
  const digest = checkedDigest(current.type, changes.digest);
  const targetChanged = (["url", "host", "port", "tls", "caCertificate"] as const).some((field) => changes[field] !== undefined);
  let target: ChannelTarget | undefined;
  if (targetChanged) {
    const stored = await db.webhookEndpoint.findUniqueOrThrow({ where: { id }, select: { secretCiphertext: true } });
    const previous = decryptTarget(stored.secretCiphertext!);
    target = await checkedTarget(
      current.type,
      previous.type === "syslog" ? { ...previous, ...changes } : { url: previous.url, ...changes },
    );
  }
  const toggle =
    changes.enabled === true && !current.enabled
      ? { enabled: true, disabledKind: null, disabledReason: null, disabledAt: null, consecutiveFailures: 0, failingSince: null }
      : changes.enabled === false && current.enabled
        ? { enabled: false, disabledKind: "manual" as const, disabledReason: null, disabledAt: new Date() }
        : {};
  await db.$transaction(async (tx) => {
    await tx.webhookEndpoint.update({
      where: { id },
      data: {
        ...toggle,
        ...(changes.eventTypes ? { eventTypes: eventTypesOf(changes.eventTypes) } : {}),
        ...(target ? { url: targetDisplay(target), secretCiphertext: encryptTarget(target) } : {}),
      },
    });
    await tx.integrationChannel.update({
      where: { id },
      data: {
        ...(changes.minSeverity ? { minSeverity: changes.minSeverity } : {}),
        ...(digest ? { digest } : {}),
        ...(target?.type === "syslog" ? { host: target.host, port: target.port, tls: target.tls } : {}),
      },
    });
  });
  return getChannel(db, partnerId, id);
}

/** Removes the channel with its delivery log and what it was told (a new channel starts afresh). */
export async function deleteChannel(db: Db, partnerId: string, id: string): Promise<void> {
  await deleteEndpoint(db, partnerOwner(partnerId), "channel", id);
}
