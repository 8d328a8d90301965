import { peerIsTrustedProxy } from "../client-address";
import { config } from "../config";
import type { HeaderSource } from "./headers";

/**
 * The one rule for state-changing requests that a browser authenticates with the session cookie
 * (docs/operations.md, "Request limits and security headers"): they must come from the service's
 * own pages, and carry JSON where JSON is the right type. Applied by the production server to
 * every such request (server/http/edge-guard.ts), and by the handlers themselves (/api/trpc,
 * /api/auth, /auth/*), so `next dev` and the handlers' tests keep it too.
 */

export const CROSS_SITE_REFUSED = "Cross-site requests are refused";
export const JSON_REQUIRED = "Content-Type must be application/json";

/** GET, HEAD and OPTIONS change nothing here; every other method may. */
export function isStateChanging(method: string): boolean {
  return !["GET", "HEAD", "OPTIONS"].includes(method.toUpperCase());
}

/**
 * Whether a request comes from the service's own pages. Browsers say where a request comes from
 * in Sec-Fetch-Site (Origin may be "null", e.g. under a strict referrer policy): only
 * `same-origin` and `none` (typed or bookmarked) pass, so another port or subdomain of the same
 * host (`same-site`) does not. Clients without it are judged by Origin when they send one; a
 * client that sends neither is no browser acting for someone else.
 */
export function isSameOrigin(headers: HeaderSource): boolean {
  const fetchSite = headers.get("sec-fetch-site");
  if (fetchSite) return fetchSite === "same-origin" || fetchSite === "none";
  const origin = headers.get("origin");
  if (!origin) return true;
  // X-Forwarded-Host only from the deployment's own proxy (TRUST_PROXY): anyone else can write it.
  const forwardedHost = peerIsTrustedProxy(headers, config.trustProxy())
    ? headers.get("x-forwarded-host")?.split(",").at(-1)?.trim()
    : undefined;
  const host = forwardedHost || headers.get("host");
  try {
    const originHost = new URL(origin).host;
    return originHost === host || originHost === new URL(config.appUrl()).host;
  } catch {
    return false;
  }
}

/** application/json or another +json type, parameters allowed, any case; `whenMissing` decides a request without one. */
export function isJsonContentType(header: string | null, whenMissing: boolean): boolean {
  if (header === null) return whenMissing;
  const mediaType = header.split(";", 1)[0]!.trim().toLowerCase();
  return mediaType === "application/json" || /^[a-z0-9!#$&^_.-]+\/[a-z0-9!#$&^_.+-]+\+json$/.test(mediaType);
}

export interface Refusal {
  status: 403 | 415;
  error: string;
}

/**
 * Why a cookie-authenticated request must be refused, or undefined: a state-changing request from
 * another site (403), or one whose body is not declared JSON when `json` says JSON is the right
 * type (415; a form's enctype, text/plain and a missing Content-Type alike).
 */
export function cookieRequestRefusal(request: { method: string; headers: HeaderSource }, options: { json: boolean }): Refusal | undefined {
  if (!isStateChanging(request.method)) return undefined;
  if (!isSameOrigin(request.headers)) return { status: 403, error: CROSS_SITE_REFUSED };
  if (options.json && !isJsonContentType(request.headers.get("content-type"), false)) return { status: 415, error: JSON_REQUIRED };
  return undefined;
}

/** A refusal as the API's envelope. */
export function refusalResponse(refusal: Refusal): Response {
  return Response.json({ success: false, error: refusal.error }, { status: refusal.status, headers: { "Cache-Control": "no-store" } });
}
