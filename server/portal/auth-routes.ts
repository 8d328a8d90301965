import type { Db } from "../db/client";
import { isSameOrigin } from "../http/cross-site";
import { portalLocale } from "../i18n/negotiate";
import { requestClientAddress } from "../client-address";
import { config } from "../config";
import { requestEmailSignIn } from "./email-sign-in";
import { portalSessionCookieName, staffSessionCookieName } from "../auth/ui-cookie";
import { consumeMagicLink, magicLinkTarget } from "./magic-links";
import {
  clearedSessionCookie,
  cookieValue,
  customerClaims,
  customerSessionCookie,
  decodeSessionCookie,
  readSessionToken,
} from "./session-cookie";
import { endPortalSession, refreshPortalSession } from "./sessions";

/**
 * The HTTP edge of portal sign-in, served by the route handlers under app/auth/ (kept here, with
 * the database passed in, so the tests drive them against their own database).
 */

/** Why the sign-in error page is shown (app/auth/error); a magic link's refusals among them. */
export const SIGN_IN_ERROR_REASONS = [
  "invalid",
  "expired",
  "used",
  "unavailable",
  "session-ended",
  "signed-out",
  "sign-in-required",
] as const;
export type SignInErrorReason = (typeof SIGN_IN_ERROR_REASONS)[number];

/** Every answer here: never cached, and the URL (a token in it) never passed on as a Referer. */
const NO_STORE = { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" };

function seeOther(location: string, setCookie?: string): Response {
  const headers = new Headers({ ...NO_STORE, Location: location });
  if (setCookie) headers.append("Set-Cookie", setCookie);
  return new Response(null, { status: 303, headers });
}

function json(status: number, body: unknown, setCookie?: string): Response {
  const headers = new Headers({ ...NO_STORE, "Content-Type": "application/json; charset=utf-8" });
  if (setCookie) headers.append("Set-Cookie", setCookie);
  return new Response(JSON.stringify(body), { status, headers });
}

export function signInErrorPath(reason: SignInErrorReason, localeCode?: string): string {
  const query = new URLSearchParams({ reason });
  if (localeCode) query.set("lang", portalLocale(localeCode));
  return `/auth/error?${query}`;
}

/**
 * GET /auth/confirm?token_hash=...&type=magiclink: consumes the link and signs the customer in
 * (the session cookie, then /portal). A link that is unknown, expired or used, or of an
 * offboarded customer, leads to /auth/error with the reason and no session. The token is never
 * shown again: the answer is a redirect, uncached, with no Referer passed on.
 *
 * When the browser already holds a session (the portal's or the admin UI's), nothing is consumed:
 * the answer is the "Continue as <company>?" page (/auth/continue), whose button POSTs the token
 * here. So a link someone else made (a partner's, an attacker's) never silently swaps the session
 * a person is working in.
 */
export async function confirmSignIn(db: Db, request: Request): Promise<Response> {
  const query = new URL(request.url).searchParams;
  if (query.get("type") !== "magiclink") return seeOther(signInErrorPath("invalid"));
  const token = query.get("token_hash") ?? "";
  if (!(await holdsUiSession(request))) return signInWithLink(db, token);
  const target = await magicLinkTarget(db, token);
  if (!target.ok) return seeOther(signInErrorPath(target.reason, target.localeCode));
  return seeOther(`${CONTINUE_PATH}?${new URLSearchParams({ token_hash: token, type: "magiclink" })}`);
}

/** The page that asks before a link replaces a session (app/auth/continue). */
export const CONTINUE_PATH = "/auth/continue";

/** POST /auth/confirm (the form of /auth/continue, fields `token_hash` and `type`): signs in with the link, same-origin only. */
export async function confirmSignInPost(db: Db, request: Request): Promise<Response> {
  if (!isSameOrigin(request.headers)) return json(403, { ok: false, reason: "cross-origin" });
  const form = await request.formData().catch(() => undefined);
  const token = form?.get("token_hash");
  if (form?.get("type") !== "magiclink" || typeof token !== "string") return seeOther(signInErrorPath("invalid"));
  return signInWithLink(db, token);
}

async function signInWithLink(db: Db, token: string): Promise<Response> {
  const result = await consumeMagicLink(db, token);
  if (!result.ok) return seeOther(signInErrorPath(result.reason, result.localeCode));
  return seeOther("/portal", await customerSessionCookie(result.signIn, result.signIn));
}

/** Whether the request carries a session cookie of either UI that decodes (live or not: asking costs one click). */
async function holdsUiSession(request: Request): Promise<boolean> {
  const header = request.headers.get("cookie");
  for (const name of [portalSessionCookieName(), staffSessionCookieName()]) {
    if (await decodeSessionCookie(cookieValue(header, name))) return true;
  }
  return false;
}

/** Link checkers send HEAD before a person opens a link: answered without consuming it. */
export function confirmSignInHead(): Response {
  return new Response(null, { status: 204, headers: NO_STORE });
}

/**
 * /auth/refresh: rotates the refresh token of the customer's session and renews the access
 * token in the cookie. GET (a page found the access token expired) answers with a redirect back
 * to `next`, a portal path; POST (the portal's keep-alive) with JSON {accessExpiresAt}. A
 * refused refresh removes the cookie: GET leads to the error page, POST answers 401.
 */
export async function refreshSession(db: Db, request: Request): Promise<Response> {
  const isKeepAlive = request.method === "POST";
  if (isKeepAlive && !isSameOrigin(request.headers)) return json(403, { ok: false, reason: "cross-origin" });
  const claims = customerClaims(await readSessionToken(request));
  const result = claims ? await refreshPortalSession(db, claims.sessionId, claims.refreshToken) : ({ ok: false, reason: "ended" } as const);
  if (!result.ok) {
    return isKeepAlive
      ? json(401, { ok: false, reason: result.reason }, clearedSessionCookie())
      : seeOther(signInErrorPath("session-ended"), clearedSessionCookie());
  }
  const cookie = await customerSessionCookie(claims!, result);
  if (isKeepAlive) return json(200, { ok: true, accessExpiresAt: Math.floor(result.accessExpiresAt.getTime() / 1000) }, cookie);
  return seeOther(portalPath(new URL(request.url).searchParams.get("next")), cookie);
}

/** POST /auth/sign-out: ends the customer's session (not their other devices') and removes the cookie. */
export async function signOut(db: Db, request: Request): Promise<Response> {
  if (!isSameOrigin(request.headers)) return json(403, { ok: false, reason: "cross-origin" });
  const claims = customerClaims(await readSessionToken(request));
  if (claims) await endPortalSession(db, claims.sessionId, "sign-out");
  return seeOther(signInErrorPath("signed-out"), clearedSessionCookie());
}

/** What /portal/sign-in says after a request (its `status` query parameter). */
export const SIGN_IN_REQUEST_STATUSES = ["sent", "invalid-email", "rate-limited"] as const;
export type SignInRequestStatus = (typeof SIGN_IN_REQUEST_STATUSES)[number];

/**
 * POST /auth/sign-in (the form of /portal/sign-in, field `email`, optional `lang`): asks for a
 * sign-in link by e-mail and answers 303 back to the page with its status. The status is `sent`
 * whether or not the address is known; the links go out after the answer (`deliver`, which the
 * route runs once the response is sent), so the answer's timing says nothing either.
 */
export async function requestSignInLink(db: Db, request: Request): Promise<{ response: Response; deliver?: () => Promise<number> }> {
  if (!isSameOrigin(request.headers)) return { response: json(403, { ok: false, reason: "cross-origin" }) };
  const form = await request.formData().catch(() => undefined);
  const email = form?.get("email");
  const lang = form?.get("lang");
  const back = (status: SignInRequestStatus) => {
    const query = new URLSearchParams({ status });
    if (typeof lang === "string" && lang) query.set("lang", portalLocale(lang));
    return seeOther(`/portal/sign-in?${query}`);
  };
  const result = await requestEmailSignIn(db, {
    email: typeof email === "string" ? email : "",
    clientAddress: requestClientAddress(request.headers, config.trustProxy()),
  });
  if (!result.ok) return { response: back(result.reason) };
  return { response: back("sent"), deliver: result.deliver };
}

/** A portal path to return to; anything else (another site, another area) is the overview. */
export function portalPath(next: string | null): string {
  return next && /^\/portal(?:[/?#]|$)/.test(next) && !next.includes("\\") ? next : "/portal";
}
