import type { IncomingMessage } from "node:http";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import { processSlot } from "./process-slot";

/**
 * Who a request comes from: the one rule for every caller that keys on a client address (staff
 * sign-in limits, logs). The client is the socket's peer address; X-Forwarded-For is read only as
 * far as TRUST_PROXY says the hops that wrote it are the deployment's own proxies, walking from
 * the peer leftwards as Express's `trust proxy` does (docs/operations.md, "Behind a proxy").
 *
 * Route handlers never see the socket, so the server (scripts/serve.ts, production and
 * development alike) writes the peer address into PEER_ADDRESS_HEADER after removing any copy a
 * client sent, and marks the process as doing so; without that mark the header is ignored.
 */

/** Which peers' X-Forwarded-For is believed. */
export type TrustProxy =
  | { kind: "none" }
  /** The n proxies nearest to the service, whatever their addresses. */
  | { kind: "hops"; hops: number }
  /** Proxies at these addresses or networks. */
  | { kind: "ranges"; ranges: ReadonlyArray<[ipaddr.IPv4 | ipaddr.IPv6, number]> };

/** Express's names for common proxy networks. */
const PRESETS: Record<string, string[]> = {
  loopback: ["127.0.0.0/8", "::1/128"],
  linklocal: ["169.254.0.0/16", "fe80::/10"],
  uniquelocal: ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"],
};

const FORMS = "a number of proxy hops, or a comma-separated list of proxy addresses, CIDR networks, loopback, linklocal or uniquelocal";

/**
 * TRUST_PROXY's value: unset, empty, `false` or `0` trusts no proxy (the client is the peer); a
 * whole number trusts that many hops; otherwise a list of addresses, CIDRs and Express's preset
 * names. `true` (Express's "believe the left-most address") is refused: any client could then
 * choose its own address. Throws with a message naming the variable.
 */
export function parseTrustProxy(raw: string | undefined): TrustProxy {
  const value = raw?.trim() ?? "";
  if (value === "" || value.toLowerCase() === "false") return { kind: "none" };
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > 32) throw new Error(`TRUST_PROXY must be ${FORMS} (got "${value}": at most 32 hops)`);
    return hops === 0 ? { kind: "none" } : { kind: "hops", hops };
  }
  if (value.toLowerCase() === "true") {
    throw new Error(
      'TRUST_PROXY=true would believe whatever address a client writes into X-Forwarded-For; give the number of proxies in front of the service or their addresses (docs/operations.md, "Behind a proxy")',
    );
  }
  const ranges: Array<[ipaddr.IPv4 | ipaddr.IPv6, number]> = [];
  for (const entry of value.split(",").map((part) => part.trim())) {
    if (entry === "") continue;
    for (const text of PRESETS[entry.toLowerCase()] ?? [entry]) {
      const range = parseRange(text);
      if (!range) throw new Error(`TRUST_PROXY must be ${FORMS} (got "${entry}")`);
      ranges.push(range);
    }
  }
  if (ranges.length === 0) throw new Error(`TRUST_PROXY must be ${FORMS} (got "${value}")`);
  return { kind: "ranges", ranges };
}

function parseRange(text: string): [ipaddr.IPv4 | ipaddr.IPv6, number] | undefined {
  const [address, bits, ...rest] = text.split("/");
  if (rest.length > 0 || !address || !isIP(address)) return undefined;
  const parsed = ipaddr.process(address);
  const max = parsed.kind() === "ipv4" ? 32 : 128;
  if (bits === undefined) return [parsed, max];
  if (!/^\d+$/.test(bits) || Number(bits) > max) return undefined;
  // An IPv4-mapped network (::ffff:10.0.0.0/104) is matched as the IPv4 network it maps.
  const prefix = address.includes(":") && parsed.kind() === "ipv4" ? Number(bits) - 96 : Number(bits);
  return prefix < 0 ? undefined : [parsed, prefix];
}

/**
 * An address in one written form: IPv4-mapped IPv6 as IPv4, IPv6 compressed and lower-case.
 * Accepts a port after an IPv4 address or a bracketed IPv6 one (some proxies add it). Undefined
 * for anything that is not an address.
 */
export function normalizeAddress(text: string | undefined): string | undefined {
  let value = text?.trim() ?? "";
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(value);
  if (bracketed) value = bracketed[1]!;
  else if (/^[\d.]+:\d{1,5}$/.test(value)) value = value.slice(0, value.lastIndexOf(":"));
  if (!isIP(value)) return undefined;
  return ipaddr.process(value).toString();
}

/** Whether a connection's peer is a proxy whose forwarded headers are believed. */
export function isTrustedPeer(address: string, trust: TrustProxy): boolean {
  return isTrustedHop(address, 0, trust);
}

function isTrustedHop(address: string, index: number, trust: TrustProxy): boolean {
  if (trust.kind === "hops") return index < trust.hops;
  if (trust.kind === "none") return false;
  const parsed = ipaddr.process(address);
  return trust.ranges.some(([network, bits]) => network.kind() === parsed.kind() && parsed.match(network, bits));
}

/**
 * The client's address from the peer and X-Forwarded-For (each header's value as received; a
 * repeated header's values in order). Walks from the peer towards the left-most entry while the
 * current hop is trusted; the first address not trusted is the client. An entry that is not an
 * address ends the walk at the hop that passed it. Undefined when the peer is unknown.
 */
export function pickClientAddress(
  peer: string | undefined,
  forwardedFor: string | readonly string[] | undefined,
  trust: TrustProxy,
): string | undefined {
  let client = normalizeAddress(peer);
  if (client === undefined || trust.kind === "none") return client;
  const entries = (typeof forwardedFor === "string" ? [forwardedFor] : (forwardedFor ?? []))
    .flatMap((value) => value.split(","))
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "")
    .reverse();
  for (let index = 0; index < entries.length && isTrustedHop(client, index, trust); index++) {
    const next = normalizeAddress(entries[index]);
    if (next === undefined) break;
    client = next;
  }
  return client;
}

/**
 * The bucket a client counts in for limits: an IPv4 address itself, an IPv6 address's /64 (one
 * subscriber's network: a host given a /64 could otherwise take a new address per attempt).
 */
export function clientKey(address: string): string {
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv4") return address;
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4);
  return `${new ipaddr.IPv6([...parts, 0, 0, 0, 0]).toString()}/64`;
}

/** The bucket of a client address as given (clientKey), "unknown" when there is none or it is no address. */
export function clientBucket(address: string | undefined): string {
  const normalized = normalizeAddress(address);
  return normalized ? clientKey(normalized) : "unknown";
}

/** Written by the server itself (stampPeerAddress); a client's copy is removed first. */
export const PEER_ADDRESS_HEADER = "x-exposure-monitor-peer";

const stamped = processSlot<boolean>("peer-address-stamped");

/**
 * Puts the socket's peer address into PEER_ADDRESS_HEADER of a Node request before anything
 * else reads it (scripts/serve.ts; the tests' servers), replacing any copy the client sent.
 */
export function stampPeerAddress(req: IncomingMessage): void {
  stamped.set(true);
  const peer = req.socket.remoteAddress ?? "";
  req.headers[PEER_ADDRESS_HEADER] = peer;
  const raw = req.rawHeaders;
  let kept = raw;
  for (let i = 0; i < raw.length; i += 2) {
    if (isPeerAddressHeader(raw[i]!)) {
      kept = raw.filter((_, at) => !isPeerAddressHeader(raw[at - (at % 2)]!));
      break;
    }
  }
  kept.push(PEER_ADDRESS_HEADER, peer);
  req.rawHeaders = kept;
}

/** Names of another length cannot be the header: only those are compared (this runs on every request). */
function isPeerAddressHeader(name: string): boolean {
  return name.length === PEER_ADDRESS_HEADER.length && name.toLowerCase() === PEER_ADDRESS_HEADER;
}

type HeaderSource = { get(name: string): string | null } | Record<string, string | string[] | undefined>;

function headerValues(headers: HeaderSource, name: string): string[] {
  if (typeof headers.get === "function") {
    const value = (headers as { get(name: string): string | null }).get(name);
    return value === null ? [] : [value];
  }
  const value = (headers as Record<string, string | string[] | undefined>)[name];
  return value === undefined ? [] : typeof value === "string" ? [value] : value;
}

/**
 * The client address of a request as a route handler sees it (a fetch Headers, or next-auth's
 * plain object of lower-case names): undefined when the process's server did not stamp the peer
 * (the service was not started through scripts/serve.ts).
 */
export function requestClientAddress(headers: HeaderSource | undefined, trust: TrustProxy): string | undefined {
  if (!headers || !stamped.get()) return undefined;
  const peer = headerValues(headers, PEER_ADDRESS_HEADER).at(-1);
  return pickClientAddress(peer, headerValues(headers, "x-forwarded-for"), trust);
}

/**
 * Whether the request's peer is one of TRUST_PROXY's proxies, so that what it forwards
 * (X-Forwarded-Host) may be believed; false when the server did not stamp the peer.
 */
export function peerIsTrustedProxy(headers: HeaderSource | undefined, trust: TrustProxy): boolean {
  if (!headers || !stamped.get() || trust.kind === "none") return false;
  const peer = normalizeAddress(headerValues(headers, PEER_ADDRESS_HEADER).at(-1));
  return peer !== undefined && isTrustedHop(peer, 0, trust);
}
