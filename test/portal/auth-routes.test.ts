import { decode } from "next-auth/jwt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uiSessionFromToken } from "../../server/api/ui/session";
import { portalSessionCookieName, sessionSecret } from "../../server/auth/ui-cookie";
import { transitionCustomer } from "../../server/customers/lifecycle";
import { confirmSignIn, confirmSignInHead, portalPath, refreshSession, signOut } from "../../server/portal/auth-routes";
import { createMagicLink } from "../../server/portal/magic-links";
import { isPortalSessionLive, REFRESH_REUSE_GRACE_SECONDS } from "../../server/portal/sessions";
import { createTestCustomer } from "../helpers/customers";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";

let testDb: TestDatabase;
let org: TestOrg;
const ORIGIN = "http://localhost:3000";

beforeAll(async () => {
  testDb = await createTestDatabase();
  org = await createTestOrg(testDb.db, "Routes");
});
afterAll(async () => {
  await testDb?.close();
});

async function magicLink(customerId?: string, localeCode = "en-GB"): Promise<string> {
  const id = customerId ?? (await createTestCustomer(testDb.db, org.partner.id, { localeCode }));
  return (await createMagicLink(testDb.db, org.partner.id, id)).url;
}

/** The session cookie a response sets ("" when it removes it), or undefined when it sets none. */
function sessionCookieOf(response: Response): { value: string; attributes: string } | undefined {
  const header = response.headers.getSetCookie().find((cookie) => cookie.startsWith(`${portalSessionCookieName()}=`));
  if (!header) return undefined;
  const [pair, ...attributes] = header.split("; ");
  return { value: pair!.slice(portalSessionCookieName().length + 1), attributes: attributes.join("; ") };
}

const withCookie = (value: string, init: RequestInit & { url?: string } = {}) =>
  new Request(init.url ?? `${ORIGIN}/auth/refresh`, {
    ...init,
    headers: { cookie: `other=1; ${portalSessionCookieName()}=${value}`, ...(init.headers as Record<string, string>) },
  });

async function signedInCookie(customerId?: string): Promise<string> {
  const response = await confirmSignIn(testDb.db, new Request(await magicLink(customerId)));
  return sessionCookieOf(response)!.value;
}

describe("GET /auth/confirm", () => {
  it("signs in: a session cookie (HttpOnly, SameSite=Lax) and a redirect to /portal, uncached and without a Referer", async () => {
    const customerId = await createTestCustomer(testDb.db, org.partner.id);
    const url = await magicLink(customerId);
    const response = await confirmSignIn(testDb.db, new Request(url));
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/portal");
    expect(response.headers.get("referrer-policy")).toBe("no-referrer");
    expect(response.headers.get("cache-control")).toBe("no-store");
    const cookie = sessionCookieOf(response)!;
    expect(cookie.attributes).toBe("Path=/; Max-Age=43200; HttpOnly; SameSite=Lax");

    // next-auth reads it as a customer's UI session; the refresh token is inside, encrypted
    const token = await decode({ token: cookie.value, secret: sessionSecret() });
    expect(uiSessionFromToken(token!)).toEqual({
      kind: "customer",
      customerId,
      portalUserId: expect.any(String),
      email: "it@acme.example",
      accessExpiresAt: expect.any(Number),
    });
    expect(token!.accessExpiresAt! - Date.now() / 1000).toBeGreaterThan(3590);
    expect(cookie.value).not.toContain(token!.refreshToken!);
    expect(await isPortalSessionLive(testDb.db, token!.portalSessionId!, customerId)).toBe(true);
  });

  it("a second open lands on the error page with the reason and the customer's language, and sets no cookie", async () => {
    const url = await magicLink(undefined, "da-DK");
    await confirmSignIn(testDb.db, new Request(url));
    const again = await confirmSignIn(testDb.db, new Request(url));
    expect(again.status).toBe(303);
    expect(again.headers.get("location")).toBe("/auth/error?reason=used&lang=da-DK");
    expect(again.headers.get("referrer-policy")).toBe("no-referrer");
    expect(sessionCookieOf(again)).toBeUndefined();
  });

  it("refuses links without the magiclink type or token", async () => {
    const url = new URL(await magicLink());
    url.searchParams.delete("type");
    expect((await confirmSignIn(testDb.db, new Request(url))).headers.get("location")).toBe("/auth/error?reason=invalid");
    expect((await confirmSignIn(testDb.db, new Request(`${ORIGIN}/auth/confirm?type=magiclink`))).headers.get("location")).toBe(
      "/auth/error?reason=invalid",
    );
    // the link itself still works
    url.searchParams.set("type", "magiclink");
    expect((await confirmSignIn(testDb.db, new Request(url))).headers.get("location")).toBe("/portal");
  });

  it("answers a link checker's HEAD without using the link", async () => {
    const url = await magicLink();
    const head = confirmSignInHead();
    expect(head.status).toBe(204);
    expect(head.headers.get("referrer-policy")).toBe("no-referrer");
    expect((await confirmSignIn(testDb.db, new Request(url))).headers.get("location")).toBe("/portal");
  });
});

describe("/auth/refresh", () => {
  it("POST (keep-alive) rotates the refresh token and renews the access token in a new cookie", async () => {
    const cookie = await signedInCookie();
    const before = await decode({ token: cookie, secret: sessionSecret() });
    const response = await refreshSession(testDb.db, withCookie(cookie, { method: "POST", headers: { origin: ORIGIN } }));
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toEqual({ ok: true, accessExpiresAt: expect.any(Number) });
    const after = await decode({ token: sessionCookieOf(response)!.value, secret: sessionSecret() });
    expect(after!.refreshToken).not.toBe(before!.refreshToken);
    expect(after!.accessExpiresAt).toBe(body.accessExpiresAt);
    expect(after!.portalSessionId).toBe(before!.portalSessionId);
  });

  it("GET (a page found the access token expired) redirects back to the portal page it came from, and nowhere else", async () => {
    const cookie = await signedInCookie();
    const response = await refreshSession(
      testDb.db,
      withCookie(cookie, { url: `${ORIGIN}/auth/refresh?next=%2Fportal%2Fbreaches%3Fx%3D1` }),
    );
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/portal/breaches?x=1");
    expect(sessionCookieOf(response)?.value).toBeTruthy();
    expect(portalPath("https://evil.example/portal")).toBe("/portal");
    expect(portalPath("//evil.example")).toBe("/portal");
    expect(portalPath("/portalevil")).toBe("/portal");
    expect(portalPath("/portal\\..\\admin")).toBe("/portal");
    expect(portalPath(null)).toBe("/portal");
  });

  it("replaying an old cookie after rotation ends the session everywhere and removes the cookie", async () => {
    const stolen = await signedInCookie();
    const rotated = await refreshSession(testDb.db, withCookie(stolen, { method: "POST" }));
    const current = sessionCookieOf(rotated)!.value;
    await testDb.db.$executeRaw`
      UPDATE portal_refresh_tokens SET rotated_at = rotated_at - make_interval(secs => ${REFRESH_REUSE_GRACE_SECONDS + 1})
      WHERE rotated_at IS NOT NULL`;

    const replay = await refreshSession(testDb.db, withCookie(stolen, { method: "POST" }));
    expect(replay.status).toBe(401);
    expect(await replay.json()).toEqual({ ok: false, reason: "reused" });
    expect(sessionCookieOf(replay)).toEqual({ value: "", attributes: "Path=/; Max-Age=0; HttpOnly; SameSite=Lax" });

    const legitimate = await refreshSession(testDb.db, withCookie(current, { url: `${ORIGIN}/auth/refresh?next=/portal` }));
    expect(legitimate.headers.get("location")).toBe("/auth/error?reason=session-ended");
    expect(sessionCookieOf(legitimate)?.value).toBe("");
  });

  it("refuses requests without a customer cookie, and cross-site keep-alives", async () => {
    const none = await refreshSession(testDb.db, new Request(`${ORIGIN}/auth/refresh`, { method: "POST" }));
    expect(none.status).toBe(401);
    const garbage = await refreshSession(testDb.db, withCookie("not-a-jwt", { method: "POST" }));
    expect(await garbage.json()).toEqual({ ok: false, reason: "ended" });
    const cookie = await signedInCookie();
    const crossSite = await refreshSession(testDb.db, withCookie(cookie, { method: "POST", headers: { origin: "https://evil.example" } }));
    expect(crossSite.status).toBe(403);
    expect(sessionCookieOf(crossSite)).toBeUndefined();
  });

  it("an offboarded customer's session cannot be refreshed", async () => {
    const customerId = await createTestCustomer(testDb.db, org.partner.id);
    const cookie = await signedInCookie(customerId);
    await transitionCustomer(testDb.db, org.partner.id, customerId, "offboard");
    const response = await refreshSession(testDb.db, withCookie(cookie, { method: "POST" }));
    expect(await response.json()).toEqual({ ok: false, reason: "ended" });
  });
});

describe("POST /auth/sign-out", () => {
  it("ends the session, removes the cookie and says so", async () => {
    const cookie = await signedInCookie();
    const token = await decode({ token: cookie, secret: sessionSecret() });
    // what a browser sends for the portal's sign-out form (its strict referrer policy makes Origin "null")
    const browserHeaders = { origin: "null", "sec-fetch-site": "same-origin" };
    const response = await signOut(
      testDb.db,
      withCookie(cookie, { method: "POST", url: `${ORIGIN}/auth/sign-out`, headers: browserHeaders }),
    );
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/auth/error?reason=signed-out");
    expect(sessionCookieOf(response)?.value).toBe("");
    expect(await isPortalSessionLive(testDb.db, token!.portalSessionId!, token!.customerId!)).toBe(false);
  });

  it("refuses a cross-site sign-out", async () => {
    const cookie = await signedInCookie();
    const token = await decode({ token: cookie, secret: sessionSecret() });
    const refused: Array<Record<string, string>> = [
      { "sec-fetch-site": "cross-site" },
      { "sec-fetch-site": "same-site" },
      { origin: "null" },
      { origin: "https://evil.example" },
    ];
    for (const headers of refused) {
      expect((await signOut(testDb.db, withCookie(cookie, { method: "POST", headers }))).status).toBe(403);
    }
    const response = await signOut(testDb.db, withCookie(cookie, { method: "POST", headers: { "sec-fetch-site": "cross-site" } }));
    expect(response.status).toBe(403);
    expect(await isPortalSessionLive(testDb.db, token!.portalSessionId!, token!.customerId!)).toBe(true);
  });
});
