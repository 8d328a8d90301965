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

/**
 * Why an IP address may not be a webhook target; undefined when it is a public unicast address.
 * An IPv6 address that carries an IPv4 address (docs/webhooks.md, "URL rules") is judged by the
 * IPv4 address it carries, as that is where a translator or tunnel sends the request.
 */
export function nonPublicReason(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv4") {
    const range = nonPublicRange(parsed);
    return range && `${address} is a ${range} address`;
  }
  const ipv6 = parsed as ipaddr.IPv6;
  const embedded = embeddedIPv4(ipv6);
  if (embedded) {
    for (const ipv4 of embedded) {
      const range = nonPublicRange(ipv4);
      if (range) return `${address} embeds ${ipv4.toString()}, which is a ${range} address`;
    }
    return undefined;
  }
  if (ipv6.range() === "rfc6052") return `${address} is a local-use NAT64 address`;
  const range = nonPublicRange(ipv6);
  return range && `${address} is a ${range} address`;
}

function nonPublicRange(address: ipaddr.IPv4 | ipaddr.IPv6): string | undefined {
  const range = address.range();
  return range === "unicast" ? undefined : (RANGE_NAMES[range] ?? range);
}

const ipv4From = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);

/**
 * The IPv4 addresses an IPv6 address embeds: IPv4-compatible ::a.b.c.d (not :: and ::1),
 * IPv4-mapped ::ffff:a.b.c.d, IPv4-translated ::ffff:0:a.b.c.d, NAT64 64:ff9b::/96 (the last 32
 * bits), 6to4 2002::/16 (bits 16 to 47), Teredo 2001::/32 (the server in bits 32 to 63, the client
 * in the last 32 bits inverted). Undefined for any other address. The local-use NAT64 prefix
 * 64:ff9b:1::/48 places the IPv4 address where its operator chooses, so it is refused whole.
 */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4[] | undefined {
  const p = address.parts;
  const zeroUpTo = (end: number) => p.slice(0, end).every((part) => part === 0);
  if (zeroUpTo(6) && !(p[6] === 0 && p[7]! <= 1)) return [ipv4From(p[6]!, p[7]!)];
  if (zeroUpTo(5) && p[5] === 0xffff) return [ipv4From(p[6]!, p[7]!)];
  if (zeroUpTo(4) && p[4] === 0xffff && p[5] === 0) return [ipv4From(p[6]!, p[7]!)];
  if (p[0] === 0x64 && p[1] === 0xff9b && p[2] === 0 && p[3] === 0 && p[4] === 0 && p[5] === 0) return [ipv4From(p[6]!, p[7]!)];
  if (p[0] === 0x2002) return [ipv4From(p[1]!, p[2]!)];
  if (p[0] === 0x2001 && p[1] === 0) return [ipv4From(p[2]!, p[3]!), ipv4From(p[6]! ^ 0xffff, p[7]! ^ 0xffff)];
  return undefined;
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

export async function hostRefusal(host: string): Promise<string | undefined> {
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
