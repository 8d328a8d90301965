import dns, { type LookupAddress, type LookupOptions } from "node:dns";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import { config } from "../config";
import { badRequest } from "../errors";

/**
 * Webhook URLs must be https and reach only public addresses (docs/webhooks.md), checked when
 * an endpoint is registered and again when each request connects: the connection itself uses
 * `publicOnlyLookup`, so a name that resolves to a public address at registration and to an
 * internal one later (DNS rebinding) is refused. WEBHOOK_ALLOW_PRIVATE_URLS=true lifts both rules.
 */
export const ALLOW_PRIVATE_SWITCH = "WEBHOOK_ALLOW_PRIVATE_URLS=true";
const MAX_URL_LENGTH = 2048;

const RANGE_NAMES: Record<string, string> = {
  unspecified: "unspecified",
  broadcast: "broadcast",
  multicast: "multicast",
  linkLocal: "link-local",
  loopback: "loopback",
  carrierGradeNat: "carrier-grade NAT",
  private: "private",
  uniqueLocal: "unique local (private)",
  reserved: "reserved",
};

export class AddressNotAllowedError extends Error {
  override name = "AddressNotAllowedError";
  readonly code = "EADDRNOTALLOWED";
}

/** Why an IP address may not be a webhook target; undefined when it is a public unicast address. */
export function nonPublicReason(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  // process() turns IPv4-mapped IPv6 (::ffff:127.0.0.1) into the IPv4 address it carries.
  const range = ipaddr.process(address).range();
  if (range === "unicast") return undefined;
  return `${address} is a ${RANGE_NAMES[range] ?? range} address`;
}

function invalidUrl(message: string): Error {
  return badRequest(`Validation failed: url: ${message}`);
}

function bareHostname(url: URL): string {
  return url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
}

/**
 * Checks a webhook URL for registration and returns it normalized (no fragment). Throws a 400
 * AppError whose message names WEBHOOK_ALLOW_PRIVATE_URLS when that switch would allow the URL.
 */
export async function checkWebhookUrl(raw: string): Promise<string> {
  const text = raw.trim();
  if (text.length > MAX_URL_LENGTH) throw invalidUrl(`URL must be at most ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalidUrl("Invalid URL");
  }
  const allowPrivate = config.webhookAllowPrivateUrls();
  if (url.protocol !== "https:" && !(allowPrivate && url.protocol === "http:")) {
    throw invalidUrl(
      allowPrivate
        ? "URL must use https:// or http://"
        : `URL must use https:// (${ALLOW_PRIVATE_SWITCH} allows http:// for local testing)`,
    );
  }
  if (url.username || url.password) throw invalidUrl("URL must not contain a user name or password");
  url.hash = "";
  if (!allowPrivate) {
    const refusal = await hostRefusal(bareHostname(url));
    if (refusal) throw invalidUrl(refusal);
  }
  return url.toString();
}

async function hostRefusal(host: string): Promise<string | undefined> {
  let addresses: string[];
  if (isIP(host)) {
    addresses = [host];
  } else {
    try {
      addresses = (await dns.promises.lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
    } catch {
      return `URL host ${host} could not be resolved`;
    }
  }
  const reason = addresses.map(nonPublicReason).find(Boolean);
  return reason
    ? `URL must point to a public address: ${reason} (${ALLOW_PRIVATE_SWITCH} allows private addresses for local testing)`
    : undefined;
}

/**
 * The refusal for a delivery's URL before connecting, for what the connect-time lookup does not
 * see: Node connects to an IP literal without a lookup. Undefined when the request may go out.
 */
export function literalAddressRefusal(url: URL): string | undefined {
  if (config.webhookAllowPrivateUrls()) return undefined;
  if (url.protocol !== "https:") return `Refused: URL must use https:// (${ALLOW_PRIVATE_SWITCH} allows http://)`;
  const host = bareHostname(url);
  const reason = isIP(host) ? nonPublicReason(host) : undefined;
  return reason ? `Refused: ${reason}` : undefined;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A dns.lookup for outgoing connections that fails when the name resolves to a non-public address. */
export function publicOnlyLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const reason = addresses.map((entry) => nonPublicReason(entry.address)).find(Boolean);
    if (reason || addresses.length === 0) {
      return callback(new AddressNotAllowedError(`Refused: ${hostname} resolves to a non-public address (${reason ?? "none"})`), []);
    }
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0]!.address, addresses[0]!.family);
  });
}
