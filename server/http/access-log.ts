/**
 * The access log: one JSON line per answered request (docs/operations.md, "Logs"), off with
 * LOG_REQUESTS=false. The REST dispatcher writes the line of a REST call, the production server
 * (scripts/serve.ts) that of every other path. The request id is the one the answer carries in
 * X-Request-Id: a trusted proxy's (TRUST_PROXY) when it is well-formed, else a new one.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { isTrustedPeer, normalizeAddress, type TrustProxy } from "../client-address";
import { config } from "../config";
import { log } from "../log";

/** Written by the server itself (stampRequestId); a client's copy is removed first. */
export const REQUEST_ID_STAMP = "x-exposure-monitor-request-id";

/** Letters, digits and `._:@/+=-`, 1 to 128 characters: a UUID, a trace id, a proxy's own format. */
const WELL_FORMED_REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

/** A proxy's X-Request-Id, when the peer is a trusted proxy and the id is well-formed. */
export function forwardedRequestId(peer: string | undefined, header: string | string[] | undefined, trust: TrustProxy): string | undefined {
  if (typeof header !== "string" || !WELL_FORMED_REQUEST_ID.test(header)) return undefined;
  const address = normalizeAddress(peer);
  return address !== undefined && isTrustedPeer(address, trust) ? header : undefined;
}

/** Gives a Node request its id (the proxy's or a new one) in REQUEST_ID_STAMP, replacing any copy the client sent. */
export function stampRequestId(req: IncomingMessage, trust: TrustProxy): string {
  const id = forwardedRequestId(req.socket.remoteAddress, req.headers["x-request-id"], trust) ?? randomUUID();
  req.headers[REQUEST_ID_STAMP] = id;
  const raw = req.rawHeaders.filter((_, at) => req.rawHeaders[at - (at % 2)]!.toLowerCase() !== REQUEST_ID_STAMP);
  raw.push(REQUEST_ID_STAMP, id);
  req.rawHeaders = raw;
  return id;
}

export interface AccessLogEntry {
  method: string;
  /** The route's template (`/api/v1/integrations/customer/{customerId}`), never the raw path. */
  route: string;
  status: number;
  durationMs: number;
  requestId: string;
  /** The client's address by the TRUST_PROXY rule. */
  client: string | undefined;
}

export function logRequest(entry: AccessLogEntry): void {
  if (!config.logRequests()) return;
  log.info("request", { ...entry, durationMs: Math.round(entry.durationMs * 10) / 10 });
}
