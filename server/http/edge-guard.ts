import { randomBytes } from "node:crypto";
import { IncomingMessage, type ServerResponse } from "node:http";
import { cookieRequestRefusal, type Refusal } from "./cross-site";
import { nodeHeaderSource } from "./headers";

/**
 * What the production server (scripts/serve.ts) does to every request before Next.js or the REST
 * dispatcher sees it (docs/operations.md, "Request limits and security headers"):
 * 1. the security headers of the answer (a Content-Security-Policy with a fresh nonce, which
 *    Next.js reads from the request and puts on its own scripts; HSTS when APP_URL is https);
 * 2. cross-site state changes refused on every path a browser reaches with the session cookie;
 * 3. the body limit of the path: 413 at once when Content-Length is over it, and a body without
 *    one (chunked) read up to the limit before anything else sees it, and refused past it.
 * Before it, the server reads the target (readRequestTarget): the path all three are decided on.
 */

/** The REST API's limit (docs/api.md, "Request bodies"); the dispatcher checks it too. */
export const REST_BODY_LIMIT = 1_000_000;

/** Where Inngest calls the service (matched exactly), and the run state it may send with a call. */
export const INNGEST_PATH = "/api/inngest";
export const INNGEST_BODY_LIMIT = 32 * 1024 * 1024;

/**
 * Breach-data uploads (docs/admin-ui.md, "Breach data"): streamed to disk by their handler, which
 * holds each kind to its own limit (at most this one), so a chunked body is not read here first.
 */
export const BREACH_DATA_UPLOAD_PREFIX = "/api/breach-data/";
export const BREACH_DATA_UPLOAD_LIMIT = 2 * 1024 * 1024 * 1024;

/** First match wins; the last entry is every other path (pages, server actions, route handlers). */
export const BODY_LIMITS: readonly { prefix: string; limit: number }[] = [
  { prefix: BREACH_DATA_UPLOAD_PREFIX, limit: BREACH_DATA_UPLOAD_LIMIT },
  { prefix: "/api/v1/", limit: REST_BODY_LIMIT },
  { prefix: "/api/integrations/", limit: REST_BODY_LIMIT },
  { prefix: "/api/trpc/", limit: 1_000_000 },
  // Forms of a few fields, reachable without credentials: sign-in, unsubscribe, the portal's /auth routes.
  { prefix: "/api/auth/", limit: 64 * 1024 },
  { prefix: "/api/unsubscribe", limit: 64 * 1024 },
  { prefix: "/auth/", limit: 64 * 1024 },
  { prefix: "/", limit: 1_000_000 },
];

/**
 * The body limit of a path (one the guard accepted: no dot segments, no backslashes). Inngest's
 * 32 MiB only for /api/inngest itself, and only in Inngest mode (404 otherwise).
 */
export function bodyLimitFor(path: string, inngestMode = false): number {
  if (path === INNGEST_PATH && inngestMode) return INNGEST_BODY_LIMIT;
  return BODY_LIMITS.find((entry) => path.startsWith(entry.prefix))!.limit;
}

/**
 * How long a client may take to send a request's headers, and the whole request, before Node
 * answers 408 and closes the connection (checked every CONNECTIONS_CHECK_MS), so a slow body holds
 * no memory for long. Node's defaults are 60 s and 300 s. 32 MiB to /api/inngest in 30 s is about
 * 1 MB/s, far below what Inngest sends at.
 */
export const EDGE_SERVER_TIMEOUTS = { headersTimeout: 10_000, requestTimeout: 30_000, connectionsCheckingInterval: 2_000 } as const;

/** What a request's target is to the edge (RFC 9112, section 3.2). */
export type RequestTarget =
  { kind: "path"; path: string; search: string; host?: string } | { kind: "asterisk" } | { kind: "refused"; error: string };

export const TARGET_REFUSED = "Malformed request target";
export const DOT_SEGMENTS_REFUSED = "Request targets with dot segments or backslashes are refused";

/** A "." or ".." segment, written plainly or percent-encoded, between "/" (or an encoded one) and the end. */
const DOT_SEGMENT = /(?:^|\/|%2f)(?:\.|%2e){1,2}(?:\/|%2f|$)/i;
const BACKSLASH = /\\|%5c/i;

/**
 * The path and query a request names, from its raw target: origin form (`/path?query`), absolute
 * form (`http://host/path`, whose host replaces the Host header, as RFC 9112 asks), or `*`
 * (`OPTIONS *`). A path with dot segments or backslashes is refused rather than resolved: Next.js
 * would resolve `/api/inngest/../unsubscribe` to another route than the one its limits were
 * chosen by, and no browser sends one.
 */
export function readRequestTarget(raw: string | undefined): RequestTarget {
  const target = raw ?? "/";
  if (target === "*") return { kind: "asterisk" };
  let host: string | undefined;
  let originForm = target;
  if (!target.startsWith("/")) {
    const absolute = /^https?:\/\/([^/?#]+)/i.exec(target);
    if (!absolute) return { kind: "refused", error: TARGET_REFUSED };
    host = absolute[1]!;
    originForm = target.slice(absolute[0].length);
    if (!originForm.startsWith("/")) originForm = `/${originForm}`;
  }
  const queryAt = originForm.indexOf("?");
  const path = queryAt === -1 ? originForm : originForm.slice(0, queryAt);
  if (DOT_SEGMENT.test(path) || BACKSLASH.test(path) || path.includes("#")) return { kind: "refused", error: DOT_SEGMENTS_REFUSED };
  return { kind: "path", path, search: queryAt === -1 ? "" : originForm.slice(queryAt), ...(host ? { host } : {}) };
}

/**
 * The path the edge decides on, with the request rewritten to origin form for what follows
 * (Next.js, the REST dispatcher): an absolute-form target's host becomes its Host header. Undefined
 * when the edge has answered: `OPTIONS *` with the methods served (204), a target it refuses (400).
 */
export function acceptRequestTarget(req: IncomingMessage, res: ServerResponse, appUrl: string): string | undefined {
  const target = readRequestTarget(req.url);
  if (target.kind === "asterisk") {
    if (req.method === "OPTIONS") {
      res.writeHead(204, { Allow: "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS", ...restSecurityHeaders(appUrl) });
      res.end();
      return undefined;
    }
    return refuse(req, res, { status: 400, error: TARGET_REFUSED }, restSecurityHeaders(appUrl));
  }
  if (target.kind === "refused") return refuse(req, res, { status: 400, error: target.error }, restSecurityHeaders(appUrl));
  if (target.host !== undefined) {
    req.url = target.path + target.search;
    req.headers.host = target.host;
  }
  return target.path;
}

/**
 * Paths whose state changes are not authenticated by the session cookie, so another site may
 * send them: the REST API (API keys), one-click unsubscribe (mail programs post the link's
 * token), Inngest (signed calls).
 */
const NOT_COOKIE_AUTHENTICATED = ["/api/v1/", "/api/integrations/", "/api/unsubscribe"];

function isCookieAuthenticated(path: string): boolean {
  return path !== INNGEST_PATH && !NOT_COOKIE_AUTHENTICATED.some((prefix) => path.startsWith(prefix));
}

/** The policy of every answer but the REST API's; pages get the nonce their scripts carry. */
export function contentSecurityPolicy(nonce?: string): string {
  return [
    "default-src 'self'",
    nonce ? `script-src 'self' 'nonce-${nonce}'` : "script-src 'self'",
    // React and Swagger UI set style attributes; no script can run from a style.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/**
 * The REST API's policy: its answers are JSON, never a page, so nothing may load and nothing may
 * frame one (the OWASP REST Security Cheat Sheet's set; docs/operations.md, "Security headers").
 */
export const REST_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

/** HSTS for a year, only when the service's public address is https (browsers ignore it over http anyway). */
export function strictTransportSecurity(appUrl: string): string | undefined {
  return appUrl.startsWith("https://") ? "max-age=31536000" : undefined;
}

/** The security headers of a REST answer that depend on the request or APP_URL, names in lower case. */
export function restSecurityHeaders(appUrl: string): Record<string, string> {
  const hsts = strictTransportSecurity(appUrl);
  return { "content-security-policy": REST_CONTENT_SECURITY_POLICY, ...(hsts ? { "strict-transport-security": hsts } : {}) };
}

export interface EdgeGuardOptions {
  appUrl: string;
  /** Paths the REST dispatcher answers itself (no pages: the policy goes out without a nonce). */
  isRestPath(path: string): boolean;
  /** Inngest drives background work (/api/inngest is served, with Inngest's body limit). */
  inngestMode?: boolean;
}

/** A request the guard let through, and the security headers its answer must carry. */
export interface GuardedRequest {
  /** The original, or for a chunked body a copy holding the body read. */
  req: IncomingMessage;
  /**
   * Set by the caller, not here: the REST shortcut passes them to writeHead with its own (Node
   * writes headers given all at once in one pass); the Next.js path sets them before handing on.
   */
  securityHeaders: Record<string, string>;
}

/** The answer's security headers: the API's policy for REST paths, a fresh nonce for everything else. */
function securityHeadersFor(req: IncomingMessage, path: string, options: EdgeGuardOptions): Record<string, string> {
  if (options.isRestPath(path)) return restSecurityHeaders(options.appUrl);
  const policy = contentSecurityPolicy(randomBytes(16).toString("base64"));
  req.headers["content-security-policy"] = policy; // where Next.js reads the nonce from
  delete req.headers["content-security-policy-report-only"];
  const hsts = strictTransportSecurity(options.appUrl);
  return { "content-security-policy": policy, ...(hsts ? { "strict-transport-security": hsts } : {}) };
}

/** Sets the guard's security headers on an answer someone else writes (Next.js). */
export function setSecurityHeaders(res: ServerResponse, headers: Record<string, string>): void {
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
}

/** Undefined when the guard has answered (a refusal, with the security headers). */
export async function guardRequest(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  options: EdgeGuardOptions,
): Promise<GuardedRequest | undefined> {
  const securityHeaders = securityHeadersFor(req, path, options);
  const refuseWith = (refusal: Refusal | { status: number; error: string }) => refuse(req, res, refusal, securityHeaders);

  if (isCookieAuthenticated(path)) {
    const refusal = cookieRequestRefusal(
      { method: req.method ?? "GET", headers: nodeHeaderSource(req.headers) },
      { json: path.startsWith("/api/trpc/") },
    );
    if (refusal) return refuseWith(refusal);
  }

  const limit = bodyLimitFor(path, options.inngestMode);
  const declared = req.headers["content-length"];
  if (declared !== undefined) {
    return Number(declared) > limit ? refuseWith(tooLarge(limit)) : { req, securityHeaders };
  }
  if (req.headers["transfer-encoding"] === undefined || path.startsWith(BREACH_DATA_UPLOAD_PREFIX)) return { req, securityHeaders };
  const body = await readWithin(req, limit);
  if (body === "closed") return undefined;
  if (body === "too large") return refuseWith(tooLarge(limit));
  return { req: replayWithBody(req, body), securityHeaders };
}

function tooLarge(limit: number): { status: number; error: string } {
  return { status: 413, error: `Request body too large (limit ${limit} bytes)` };
}

/** How long a refused request's body may still come in, read and dropped, before the connection is cut. */
const LINGER_MS = 5_000;

/**
 * Answers in the API's envelope. Whatever the client still sends is read and dropped (never
 * kept) for a few seconds, as nginx's lingering close does, so the client reads the answer
 * rather than a reset; then the connection is cut.
 */
function refuse(
  req: IncomingMessage,
  res: ServerResponse,
  refusal: Refusal | { status: number; error: string },
  headers: Record<string, string>,
): undefined {
  const body = JSON.stringify({ success: false, error: refusal.error });
  res.writeHead(refusal.status, {
    ...headers,
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(body),
    "Cache-Control": "no-store",
  });
  res.end(body);
  if (!req.readableEnded) {
    const cut = setTimeout(() => req.socket.destroy(), LINGER_MS).unref();
    req.once("end", () => clearTimeout(cut)).once("close", () => clearTimeout(cut));
    req.removeAllListeners("data");
    req.resume();
  }
  return undefined;
}

/** The body, at most `limit` bytes; "too large" as soon as there is more (the rest is not kept). */
function readWithin(req: IncomingMessage, limit: number): Promise<Buffer | "too large" | "closed"> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (result: Buffer | "too large" | "closed") => {
      req.off("data", onData).off("end", onEnd).off("close", onClose).off("error", onClose);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) settle("too large");
      else chunks.push(chunk);
    };
    const onEnd = () => settle(Buffer.concat(chunks));
    const onClose = () => settle("closed");
    req.on("data", onData).once("end", onEnd).once("close", onClose).once("error", onClose);
  });
}

/** The request again, its body the bytes read, with their Content-Length in place of Transfer-Encoding. */
function replayWithBody(req: IncomingMessage, body: Buffer): IncomingMessage {
  const replay = new IncomingMessage(req.socket);
  replay.method = req.method;
  replay.url = req.url;
  replay.httpVersion = req.httpVersion;
  replay.httpVersionMajor = req.httpVersionMajor;
  replay.httpVersionMinor = req.httpVersionMinor;
  const headers = { ...req.headers, "content-length": String(body.length) };
  delete headers["transfer-encoding"];
  replay.headers = headers;
  replay.rawHeaders = Object.entries(headers).flatMap(([name, value]) =>
    (Array.isArray(value) ? value : [value ?? ""]).flatMap((one) => [name, one]),
  );
  replay.trailers = req.trailers;
  replay.complete = true;
  replay.push(body);
  replay.push(null);
  return replay;
}
