import { isIP } from "node:net";
import { decryptSecret, encryptSecret } from "../../app-key";
import { config } from "../../config";
import { badRequest } from "../../errors";
import { checkWebhookUrl, hostRefusal } from "../url-safety";

/**
 * Where a channel's messages go. A chat webhook URL is a credential (whoever holds it may post
 * to the channel): it is kept encrypted in the endpoint's secret_ciphertext together with the
 * rest of the target, and shown, logged and written to the delivery log only masked.
 */
export const CHANNEL_TYPES = ["slack", "teams", "syslog"] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

export type ChannelTarget =
  { type: "slack" | "teams"; url: string } | { type: "syslog"; host: string; port: number; tls: boolean; caCertificate?: string };

export function encryptTarget(target: ChannelTarget): string {
  return encryptSecret(JSON.stringify(target));
}

export function decryptTarget(ciphertext: string): ChannelTarget {
  return JSON.parse(decryptSecret(ciphertext)) as ChannelTarget;
}

/** A chat URL as shown: scheme, host and the path's first segment, the rest (the secret part) elided. */
export function maskedUrl(url: string): string {
  const parsed = new URL(url);
  const first = parsed.pathname.split("/").find((segment) => segment !== "");
  return `${parsed.protocol}//${parsed.host}/${first ? `${first}/` : ""}…`;
}

/** What the endpoint row's url column shows for the target. */
export function targetDisplay(target: ChannelTarget): string {
  return target.type === "syslog" ? `syslog${target.tls ? "+tls" : ""}://${hostPart(target.host)}:${target.port}` : maskedUrl(target.url);
}

const hostPart = (host: string) => (isIP(host) === 6 ? `[${host}]` : host);

/** An error text with the target's URL (or any part of its secret path) taken out, for logs and the delivery log. */
export function withoutSecret(text: string, target: ChannelTarget): string {
  if (target.type === "syslog") return text;
  const { pathname, search } = new URL(target.url);
  let clean = text.split(target.url).join(maskedUrl(target.url));
  for (const part of [pathname + search, pathname, search]) if (part.length > 1) clean = clean.split(part).join("/…");
  return clean;
}

const invalid = (field: string, message: string) => badRequest(`Validation failed: ${field}: ${message}`);

/**
 * A chat URL passes the webhook URL rules (https only, a public address) and a host name of
 * its service is not required: Teams workflows live under several Microsoft hosts.
 */
export async function checkChatUrl(raw: string): Promise<string> {
  return checkWebhookUrl(raw);
}

const HOST_NAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*\.?$/i;

/** A syslog host: a name or an IP address, public unless WEBHOOK_ALLOW_PRIVATE_URLS=true, as webhook hosts. */
export async function checkSyslogHost(raw: string): Promise<string> {
  const host = raw
    .trim()
    .replace(/^\[(.*)\]$/, "$1")
    .toLowerCase();
  if (!(isIP(host) || HOST_NAME.test(host))) throw invalid("host", "Must be a host name or an IP address");
  if (config.webhookAllowPrivateUrls()) return host;
  const refusal = await hostRefusal(host);
  if (refusal) throw invalid("host", refusal.replace(/^URL host/, "Host").replace(/^URL must/, "Host must"));
  return host;
}
