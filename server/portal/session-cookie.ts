import { decode, encode, type JWT } from "next-auth/jwt";
import { portalSessionCookieName, secureCookies, sessionSecret } from "../auth/ui-cookie";
import { REFRESH_TOKEN_IDLE_SECONDS, type IssuedTokens } from "./sessions";

/** Who the cookie signs in: the portal user of a customer, in one portal session. */
export interface CustomerIdentity {
  customerId: string;
  portalUserId: string;
  sessionId: string;
  email: string;
}

/**
 * The Set-Cookie value of a customer's UI session: next-auth's JWT format (encrypted with the
 * session secret) carrying the access expiry and the current refresh token, in the portal's own
 * cookie (never the staff one). The cookie lives as long as an unused refresh token does, and is
 * HttpOnly and SameSite=Lax like next-auth's.
 */
export async function customerSessionCookie(identity: CustomerIdentity, tokens: IssuedTokens): Promise<string> {
  const token: JWT = {
    kind: "customer",
    sub: identity.portalUserId,
    email: identity.email,
    customerId: identity.customerId,
    portalUserId: identity.portalUserId,
    portalSessionId: identity.sessionId,
    refreshToken: tokens.refreshToken,
    accessExpiresAt: Math.floor(tokens.accessExpiresAt.getTime() / 1000),
  };
  const value = await encode({ token, secret: sessionSecret(), maxAge: REFRESH_TOKEN_IDLE_SECONDS });
  return serializeSessionCookie(value, REFRESH_TOKEN_IDLE_SECONDS);
}

/** The Set-Cookie value that removes the session cookie. */
export function clearedSessionCookie(): string {
  return serializeSessionCookie("", 0);
}

function serializeSessionCookie(value: string, maxAgeSeconds: number): string {
  const secure = secureCookies() ? "; Secure" : "";
  return `${portalSessionCookieName()}=${value}; Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${secure}`;
}

/** The decoded portal session cookie of a request, or null when it has none or one that does not decode. */
export async function readSessionToken(request: Request): Promise<JWT | null> {
  return decodeSessionCookie(cookieValue(request.headers.get("cookie"), portalSessionCookieName()));
}

/** A session cookie's value decoded (either UI's: both are next-auth JWTs), or null. */
export async function decodeSessionCookie(value: string | undefined): Promise<JWT | null> {
  if (!value) return null;
  try {
    return await decode({ token: value, secret: sessionSecret() });
  } catch {
    return null;
  }
}

/** The customer's identity and refresh token from a decoded cookie, when it is a customer's. */
export function customerClaims(token: JWT | null): (CustomerIdentity & { refreshToken: string }) | undefined {
  if (
    token?.kind !== "customer" ||
    !token.customerId ||
    !token.portalUserId ||
    !token.portalSessionId ||
    !token.refreshToken ||
    !token.email
  ) {
    return undefined;
  }
  return {
    customerId: token.customerId,
    portalUserId: token.portalUserId,
    sessionId: token.portalSessionId,
    email: token.email,
    refreshToken: token.refreshToken,
  };
}

export function cookieValue(header: string | null, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const separator = part.indexOf("=");
    if (separator > 0 && part.slice(0, separator).trim() === name) return part.slice(separator + 1).trim();
  }
  return undefined;
}
