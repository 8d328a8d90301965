import { derivedAppKey } from "../app-key";
import { config } from "../config";

/*
 * The UI session cookie both sign-ins write: next-auth's for staff (server/api/ui/session.ts) and the
 * portal's /auth routes for customers (server/portal/session-cookie.ts).
 */

/** The key that signs and encrypts session cookies: NEXTAUTH_SECRET, else derived from the app secret. */
export function sessionSecret(): string {
  return config.nextAuthSecret() ?? derivedAppKey("ui-sessions").toString("base64url");
}

/** next-auth's cookie name: the __Secure- prefix when the public URL is https. */
export function sessionCookieName(): string {
  return config.appUrl().startsWith("https://") ? "__Secure-next-auth.session-token" : "next-auth.session-token";
}
