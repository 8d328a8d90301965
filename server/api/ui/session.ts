import type { NextAuthOptions } from "next-auth";
import { getServerSession } from "next-auth";
import type { JWT } from "next-auth/jwt";
import { cookies } from "next/headers";
import CredentialsProvider from "next-auth/providers/credentials";
import type { OAuthConfig } from "next-auth/providers/oauth";
import { portalSessionCookieName, secureCookies, sessionSecret, staffSessionCookieName } from "../../auth/ui-cookie";
import { requestClientAddress } from "../../client-address";
import { config } from "../../config";
import type { Db } from "../../db/client";
import { getAppDb } from "../../db/instance";
import { cookieValue, decodeSessionCookie } from "../../portal/session-cookie";
import { isPortalSessionLive } from "../../portal/sessions";
import { authenticateStaff, type StaffSignIn } from "../../auth/staff";
import { resolveSsoSignIn, SSO_PROVIDER_PREFIX, ssoClients, ssoProviderId } from "../../auth/staff-sso";
import { endStaffSession, isStaffSessionLive, STAFF_SESSION_SECONDS, startStaffSession } from "../../auth/staff-sessions";

/**
 * Who is signed into a UI. Staff sign into the admin UI with e-mail and password (next-auth
 * credentials, JWT sessions, the staff cookie); customers sign into the portal with a one-time link
 * (the portal cookie, made by /auth/confirm, docs/portal.md). The two cookies are read apart: a
 * browser may hold both, and neither sign-in touches the other's. Every admin page and UI procedure scopes by
 * distributorId, every portal page and procedure by customerId.
 */
export type UiSession = StaffUiSession | CustomerUiSession;

/** A staff member signed into the admin UI, in one server-side session (sessionId: absent only in sessions tests build). */
export type StaffUiSession = {
  kind: "staff";
  staffId: string;
  distributorId: string;
  email: string;
  name: string | null;
  sessionId?: string;
};

/** A customer signed into the portal; the access token runs out at accessExpiresAt (epoch seconds). */
export type CustomerUiSession = { kind: "customer"; customerId: string; portalUserId: string; email: string; accessExpiresAt: number };

declare module "next-auth/jwt" {
  interface JWT {
    kind?: "staff" | "customer";
    staffId?: string;
    distributorId?: string;
    staffName?: string | null;
    /** The staff_sessions row the cookie belongs to: every request checks it is still live. */
    staffSessionId?: string;
    customerId?: string;
    portalUserId?: string;
    portalSessionId?: string;
    /** The portal session's current refresh token: only ever inside the encrypted cookie. */
    refreshToken?: string;
    accessExpiresAt?: number;
  }
}

declare module "next-auth" {
  interface Session {
    ui?: UiSession;
  }
  interface User {
    distributorId?: string;
    staffName?: string | null;
    signInMethod?: "password" | "sso";
  }
}

export function uiSessionFromToken(token: JWT): UiSession | undefined {
  if (token.kind === "staff" && token.staffId && token.distributorId && token.email && token.staffSessionId) {
    return {
      kind: "staff",
      staffId: token.staffId,
      distributorId: token.distributorId,
      email: token.email,
      name: token.staffName ?? null,
      sessionId: token.staffSessionId,
    };
  }
  if (token.kind === "customer" && token.customerId && token.portalUserId && token.email && token.accessExpiresAt) {
    return {
      kind: "customer",
      customerId: token.customerId,
      portalUserId: token.portalUserId,
      email: token.email,
      accessExpiresAt: token.accessExpiresAt,
    };
  }
  return undefined;
}

/**
 * The staff sign-in: next-auth's credentials provider `staff`. The client address comes from the
 * request's headers by the one rule of server/client-address.ts (the server stamps the peer).
 */
export function staffCredentialsProvider(getDb: () => Promise<Db>) {
  return CredentialsProvider({
    id: "staff",
    name: "Staff",
    credentials: {
      email: { label: "E-mail", type: "email" },
      password: { label: "Password", type: "password" },
      otp: { label: "Authentication code", type: "text" },
    },
    async authorize(credentials, request) {
      if (!credentials?.email || !credentials.password) return null;
      const result = await authenticateStaff(await getDb(), {
        email: credentials.email,
        password: credentials.password,
        otp: credentials.otp || undefined,
        clientAddress: requestClientAddress(request?.headers, config.trustProxy()),
      });
      // next-auth passes the message to the sign-in page as ?error=...
      if (!result.ok) throw new Error(SIGN_IN_ERRORS[result.reason]);
      const { staff } = result;
      return { id: staff.id, email: staff.email, distributorId: staff.distributorId, staffName: staff.name, signInMethod: "password" };
    },
  });
}

/** The sign-in page's error codes (app/admin/sign-in/messages.ts) of each refusal. */
const SIGN_IN_ERRORS: Record<Extract<StaffSignIn, { ok: false }>["reason"], string> = {
  invalid: "CredentialsSignin",
  "rate-limited": "RateLimited",
  "mfa-required": "MfaRequired",
  "mfa-invalid": "MfaInvalid",
  "sso-required": "SsoRequired",
};

/**
 * A distributor's single sign-on as a next-auth OAuth provider `sso-<distributor id>`: OpenID
 * Connect discovery from the issuer, the authorization code flow with PKCE, state and nonce
 * checked (each in its own cookie, used once), and the ID token verified by openid-client
 * (signature by the provider's published keys, issuer, audience = the client id, expiry,
 * nonce). Who the token's subject is decides the signIn callback.
 */
export function ssoProvider(client: {
  distributorId: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
}): OAuthConfig<Record<string, unknown>> {
  return {
    id: ssoProviderId(client.distributorId),
    name: "Single sign-on",
    type: "oauth",
    wellKnown: `${client.issuer}/.well-known/openid-configuration`,
    clientId: client.clientId,
    clientSecret: client.clientSecret,
    authorization: { params: { scope: "openid email profile" } },
    checks: ["pkce", "state", "nonce"],
    idToken: true,
    profile(claims) {
      return { id: String(claims.sub ?? ""), email: typeof claims.email === "string" ? claims.email : null, name: null };
    },
  };
}

let options: NextAuthOptions | undefined;

/** Built on first use (not at import), so a build never reads or creates the app secret. */
export function authOptions(): NextAuthOptions {
  options ??= buildAuthOptions(getAppDb);
  return options;
}

/**
 * The options for /api/auth itself: the staff and customer sessions' options with a provider for
 * each distributor's single sign-on, read from the database on each request (a setting changed
 * in any process takes effect at once).
 */
export async function authOptionsWithSso(getDb: () => Promise<Db> = getAppDb): Promise<NextAuthOptions> {
  const base = getDb === getAppDb ? authOptions() : buildAuthOptions(getDb);
  const clients = await ssoClients(await getDb());
  return clients.length === 0 ? base : { ...base, providers: [...base.providers, ...clients.map(ssoProvider)] };
}

/** The options on a given database (the app's; tests drive next-auth's core on their own). */
export function buildAuthOptions(getDb: () => Promise<Db>): NextAuthOptions {
  const secure = secureCookies();
  return {
    secret: sessionSecret(),
    session: { strategy: "jwt", maxAge: STAFF_SESSION_SECONDS },
    useSecureCookies: secure,
    cookies: {
      sessionToken: { name: staffSessionCookieName(), options: { httpOnly: true, sameSite: "lax", path: "/", secure } },
    },
    pages: { signIn: "/admin/sign-in", error: "/admin/sign-in" },
    providers: [staffCredentialsProvider(getDb)],
    callbacks: {
      async signIn({ user, account, profile }) {
        if (!account?.provider.startsWith(SSO_PROVIDER_PREFIX)) return true;
        const distributorId = account.provider.slice(SSO_PROVIDER_PREFIX.length);
        const result = await resolveSsoSignIn(await getDb(), distributorId, (profile ?? {}) as Record<string, unknown>);
        if (!result.ok) return `/admin/sign-in?error=${result.reason}`;
        // The same object becomes the jwt callback's `user` (no adapter): the staff account, not the provider's profile.
        Object.assign(user, {
          id: result.staff.id,
          email: result.staff.email,
          distributorId: result.staff.distributorId,
          staffName: result.staff.name,
          signInMethod: "sso",
        });
        return true;
      },
      async jwt({ token, user }) {
        if (user?.distributorId) {
          const session = await startStaffSession(await getDb(), user.id, user.signInMethod ?? "password");
          return {
            ...token,
            kind: "staff",
            staffId: user.id,
            distributorId: user.distributorId,
            staffName: user.staffName ?? null,
            staffSessionId: session.id,
          };
        }
        if (token.kind === "staff") {
          // Signed out, signed out everywhere, password changed or reset, account removed or moved,
          // past its hard end: the session is over at once (docs/admin-ui.md).
          const live = await isStaffSessionLive(await getDb(), {
            sessionId: token.staffSessionId ?? "",
            staffUserId: token.staffId ?? "",
            distributorId: token.distributorId ?? "",
          });
          if (!live) return { ...token, kind: undefined };
        }
        return token;
      },
      async session({ session, token }) {
        // The staff cookie carries staff sessions only.
        session.ui = token.kind === "staff" ? uiSessionFromToken(token) : undefined;
        return session;
      },
    },
    events: {
      async signOut({ token }) {
        if (token?.kind === "staff" && token.staffSessionId) await endStaffSession(await getDb(), token.staffSessionId, "sign-out");
      },
    },
  };
}

/** The signed-in staff member (the staff cookie) or customer (the portal cookie) of the current request. */
export async function currentUiSession(ui: "staff" | "customer"): Promise<UiSession | undefined> {
  if (ui === "staff") return (await getServerSession(authOptions()))?.ui;
  return customerSessionOfCookie(await getAppDb(), (await cookies()).get(portalSessionCookieName())?.value);
}

/**
 * The session a /api/trpc request acts in: the portal cookie's for a call (or batch) of portal
 * procedures only, the staff cookie's otherwise.
 */
export async function uiSessionOfRequest(request: Request): Promise<UiSession | undefined> {
  const procedures = decodeURIComponent(new URL(request.url).pathname.replace(/^.*\/api\/trpc\//, "")).split(",");
  if (!procedures.every((name) => name.startsWith("portal."))) return currentUiSession("staff");
  return customerSessionOfCookie(await getAppDb(), cookieValue(request.headers.get("cookie"), portalSessionCookieName()));
}

/** A portal cookie's customer, while its portal session is live (signed out, offboarded or revoked: none, whatever the access expiry). */
export async function customerSessionOfCookie(db: Db, value: string | undefined): Promise<CustomerUiSession | undefined> {
  const token = await decodeSessionCookie(value);
  if (token?.kind !== "customer") return undefined;
  const session = uiSessionFromToken(token);
  if (session?.kind !== "customer") return undefined;
  return (await isPortalSessionLive(db, token.portalSessionId ?? "", session.customerId)) ? session : undefined;
}
