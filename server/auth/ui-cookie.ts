import { derivedAppKey } from "../app-key";
import { config } from "../config";

/*
 * The UI session cookies: next-auth's for staff (server/api/ui/session.ts) and the portal's, written
 * by its /auth routes (server/portal/session-cookie.ts). Two names, so a sign-in to one UI never
 * replaces the other's session; with an https APP_URL both carry the __Host- prefix (Secure, Path=/,
 * no Domain), which a browser lets no other origin of the host, another port or a sub-domain, set
 * or overwrite.
 */

/** The key that signs and encrypts session cookies: NEXTAUTH_SECRET, else derived from the app secret. */
export function sessionSecret(): string {
  return config.nextAuthSecret() ?? derivedAppKey("ui-sessions").toString("base64url");
}

/** Whether the UI cookies are Secure (and __Host-): the public URL is https. */
export function secureCookies(): boolean {
  return config.appUrl().startsWith("https://");
}

/** The admin UI's session cookie (next-auth's session token). */
export function staffSessionCookieName(): string {
  return secureCookies() ? "__Host-staff-session" : "staff-session";
}

/** The portal's session cookie. */
export function portalSessionCookieName(): string {
  return secureCookies() ? "__Host-portal-session" : "portal-session";
}
