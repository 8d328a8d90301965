import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStaffUser } from "../../server/auth/staff";
import { portalSessionCookieName, staffSessionCookieName } from "../../server/auth/ui-cookie";
import { confirmSignIn, confirmSignInPost } from "../../server/portal/auth-routes";
import { createMagicLink, magicLinkTarget } from "../../server/portal/magic-links";
import { createTestCustomer } from "../helpers/customers";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { startStaffAuthServer } from "../helpers/staff-auth";

/**
 * Issue 39, item 7: staff and portal shared one cookie name without the __Host- prefix, so another
 * port of the host could overwrite it and a partner-made magic link silently replaced a staff
 * session. Now: two cookies, __Host- under an https APP_URL, and a "Continue as <company>?" step
 * (a POST) when a link is opened in a browser that already holds a session.
 */
let testDb: TestDatabase;
let org: TestOrg;
let server: Awaited<ReturnType<typeof startStaffAuthServer>>;
const APP_URL = "https://monitor.example";
const PASSWORD = "a long staff password";
const STAFF_EMAIL = "staff@swapping.example";
let savedAppUrl: string | undefined;

beforeAll(async () => {
  savedAppUrl = process.env.APP_URL;
  process.env.APP_URL = APP_URL;
  testDb = await createTestDatabase();
  org = await createTestOrg(testDb.db, "Swapping");
  await createStaffUser(testDb.db, { distributorId: org.distributor.id, email: STAFF_EMAIL, password: PASSWORD });
  server = await startStaffAuthServer(testDb.db);
});
afterAll(async () => {
  if (savedAppUrl === undefined) delete process.env.APP_URL;
  else process.env.APP_URL = savedAppUrl;
  await server?.close();
  await testDb?.close();
});

async function linkFor(companyName: string): Promise<string> {
  const customerId = await createTestCustomer(testDb.db, org.partner.id, { companyName });
  return (await createMagicLink(testDb.db, org.partner.id, customerId)).url;
}

const tokenOf = (url: string) => new URL(url).searchParams.get("token_hash")!;

function setCookieNamed(response: Response, name: string): string | undefined {
  return response.headers.getSetCookie().find((cookie) => cookie.startsWith(`${name}=`));
}

/** The cookie pair (name=value) a response sets for `name`. */
function pairOf(response: Response, name: string): string {
  return setCookieNamed(response, name)!.split(";")[0]!;
}

async function staffCookie(): Promise<string> {
  const browser = server.browser();
  const response = await browser.request("/api/auth/callback/staff", {
    method: "POST",
    form: { csrfToken: await browser.csrfToken(), email: STAFF_EMAIL, password: PASSWORD, json: "true" },
  });
  return pairOf(response, staffSessionCookieName());
}

async function portalCookie(companyName: string): Promise<string> {
  return pairOf(await confirmSignIn(testDb.db, new Request(await linkFor(companyName))), portalSessionCookieName());
}

describe("the UI session cookies", () => {
  it("are two, both __Host- (Secure, Path=/, no Domain) under an https APP_URL", async () => {
    expect(staffSessionCookieName()).toBe("__Host-staff-session");
    expect(portalSessionCookieName()).toBe("__Host-portal-session");
    const browser = server.browser();
    const signIn = await browser.request("/api/auth/callback/staff", {
      method: "POST",
      form: { csrfToken: await browser.csrfToken(), email: STAFF_EMAIL, password: PASSWORD, json: "true" },
    });
    const staff = setCookieNamed(signIn, "__Host-staff-session")!;
    expect(staff).toMatch(/; Path=\//);
    expect(staff).toMatch(/; Secure/);
    expect(staff).not.toMatch(/Domain=/i);
    const portal = setCookieNamed(await confirmSignIn(testDb.db, new Request(await linkFor("Cookie Ltd"))), "__Host-portal-session")!;
    expect(portal).toMatch(/^__Host-portal-session=[^;]+; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax; Secure$/);
  });

  it("are read apart: the staff cookie is no portal session, and a portal sign-in sets no staff cookie", async () => {
    const staff = await staffCookie();
    expect(await server.sessionFor(staff.slice(staff.indexOf("=") + 1))).toMatchObject({ kind: "staff", email: STAFF_EMAIL });
    const signIn = await confirmSignIn(testDb.db, new Request(await linkFor("Apart Ltd")));
    expect(setCookieNamed(signIn, staffSessionCookieName())).toBeUndefined();
  });
});

describe("a sign-in link opened in a browser that holds a session", () => {
  for (const holder of ["staff", "portal"] as const) {
    it(`(${holder}) asks "Continue as <company>?" first, consuming nothing and setting no cookie`, async () => {
      const cookie = holder === "staff" ? await staffCookie() : await portalCookie("First Customer Ltd");
      const url = await linkFor("Someone Else Ltd");
      const answer = await confirmSignIn(testDb.db, new Request(url, { headers: { cookie } }));
      expect(answer.status).toBe(303);
      expect(answer.headers.get("location")).toBe(`/auth/continue?token_hash=${tokenOf(url)}&type=magiclink`);
      expect(answer.headers.getSetCookie()).toEqual([]);
      expect(await magicLinkTarget(testDb.db, tokenOf(url))).toMatchObject({ ok: true, companyName: "Someone Else Ltd" });
    });
  }

  it("signs in only when the page's button POSTs the link from the same origin", async () => {
    const url = await linkFor("Chosen Ltd");
    const form = () => new URLSearchParams({ token_hash: tokenOf(url), type: "magiclink" });
    const post = (headers: Record<string, string>) =>
      confirmSignInPost(testDb.db, new Request(`${APP_URL}/auth/confirm`, { method: "POST", body: form(), headers }));
    const crossSite = await post({ "sec-fetch-site": "cross-site" });
    expect(crossSite.status).toBe(403);
    expect(crossSite.headers.getSetCookie()).toEqual([]);
    const sameOrigin = await post({ "sec-fetch-site": "same-origin" });
    expect(sameOrigin.status).toBe(303);
    expect(sameOrigin.headers.get("location")).toBe("/portal");
    expect(setCookieNamed(sameOrigin, portalSessionCookieName())).toBeDefined();
    expect(await magicLinkTarget(testDb.db, tokenOf(url))).toMatchObject({ ok: false, reason: "used" });
  });

  it("a used link goes to the error page, not the question", async () => {
    const url = await linkFor("Spent Ltd");
    await confirmSignIn(testDb.db, new Request(url));
    const again = await confirmSignIn(testDb.db, new Request(url, { headers: { cookie: await staffCookie() } }));
    expect(again.headers.get("location")).toBe("/auth/error?reason=used&lang=en-GB");
  });
});
