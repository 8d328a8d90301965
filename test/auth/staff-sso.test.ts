import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { inviteStaff } from "../../server/auth/staff-management";
import { setSsoSettings, ssoProviderId } from "../../server/auth/staff-sso";
import { createStaffUser } from "../../server/auth/staff";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { startOidcProvider, type TestOidcProvider } from "../helpers/oidc-provider";
import { startStaffAuthServer, type StaffBrowser } from "../helpers/staff-auth";

/**
 * Single sign-on against a real OpenID provider (oidc-provider) through next-auth's own handler
 * with the app's options: discovery, PKCE, state and nonce, the ID token's signature and audience,
 * and who the verified identity becomes (docs/admin-ui.md, "Single sign-on").
 */
let testDb: TestDatabase;
let auth: Awaited<ReturnType<typeof startStaffAuthServer>>;
let idp: TestOidcProvider;
let org: TestOrg;
let providerId: string;
const CLIENT_ID = "exposure-monitor-admin";
const CLIENT_SECRET = "a client secret the provider issued";
const DOMAIN = "sso.example";

beforeAll(async () => {
  testDb = await createTestDatabase();
  auth = await startStaffAuthServer(testDb.db);
  org = await createTestOrg(testDb.db);
  providerId = ssoProviderId(org.distributor.id);
  idp = await startOidcProvider({
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    redirectUris: [`${auth.baseUrl}/api/auth/callback/${providerId}`],
  });
  await setSsoSettings(
    testDb.db,
    org.distributor.id,
    { issuer: idp.issuer, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, required: false, allowedDomains: [DOMAIN], jitRole: null },
    auth.baseUrl,
  );
});
afterAll(async () => {
  await idp?.close();
  await auth?.close();
  await testDb?.close();
});
beforeEach(() => idp.tamper("none"));

/** The browser's round trip: start at next-auth, through the provider's authorization, back to the callback. */
async function ssoSignIn(browser: StaffBrowser): Promise<{ location: string; callbackUrl: string }> {
  const start = await browser.request(`/api/auth/signin/${providerId}`, {
    method: "POST",
    form: { csrfToken: await browser.csrfToken(), callbackUrl: `${auth.baseUrl}/admin`, json: "true" },
  });
  let next = ((await start.json()) as { url: string }).url;
  expect(next.startsWith(idp.issuer)).toBe(true);
  const authorization = new URL(next);
  expect(authorization.searchParams.get("code_challenge_method")).toBe("S256");
  expect(authorization.searchParams.get("state")).toBeTruthy();
  expect(authorization.searchParams.get("nonce")).toBeTruthy();
  const jar = new Map<string, string>();
  for (let hop = 0; hop < 10 && next.startsWith(idp.issuer); hop++) {
    const response = await fetch(next, { redirect: "manual", headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; ") } });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(";");
      const at = pair!.indexOf("=");
      jar.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    const location = response.headers.get("location");
    if (!location) throw new Error(`the provider answered ${response.status} at ${next}: ${await response.text()}`);
    next = new URL(location, next).toString();
  }
  const callback = await browser.request(next);
  return { location: callback.headers.get("location") ?? "", callbackUrl: next };
}

const errorOf = (location: string) => new URL(location, auth.baseUrl).searchParams.get("error");
const account = (local: string, extra: Partial<{ email_verified: boolean }> = {}) => ({
  sub: `sub-${randomUUID()}`,
  email: `${local}-${randomUUID().slice(0, 6)}@${DOMAIN}`,
  ...extra,
});

describe("single sign-on", () => {
  it("an invited address's first sign-in makes its account with the invited role and links it", async () => {
    const person = account("invited");
    const owner = await createStaffUser(testDb.db, { distributorId: org.distributor.id, email: `owner-${person.email}`, role: "owner" });
    await inviteStaff(testDb.db, {
      distributorId: org.distributor.id,
      invitedBy: { id: owner.id, email: `owner-${person.email}` },
      email: person.email,
      role: "admin",
    });
    idp.signInAs(person);
    const browser = auth.browser();
    const { location } = await ssoSignIn(browser);
    expect(location).toBe(`${auth.baseUrl}/admin`);
    const session = await auth.sessionFor(browser.sessionCookie()!);
    expect(session).toMatchObject({ kind: "staff", email: person.email, distributorId: org.distributor.id });
    const staff = await testDb.db.staffUser.findUniqueOrThrow({ where: { email: person.email } });
    expect(staff).toMatchObject({ role: "admin", ssoSubject: `${idp.issuer} ${person.sub}`, passwordHash: null });
    const sessionRow = await testDb.db.staffSession.findFirstOrThrow({ where: { staffUserId: staff.id } });
    expect(sessionRow.method).toBe("sso");
    expect(await testDb.db.staffInvitation.count({ where: { email: person.email, spentAt: null } })).toBe(0);
  });

  it("an existing account of the address is linked at its first sign-in, and found by its subject after", async () => {
    const person = account("existing");
    await createStaffUser(testDb.db, {
      distributorId: org.distributor.id,
      email: person.email,
      password: "an existing long password",
      role: "viewer",
    });
    idp.signInAs(person);
    expect((await ssoSignIn(auth.browser())).location).toBe(`${auth.baseUrl}/admin`);
    idp.signInAs({ ...person, email: `renamed-${person.email}` });
    const again = auth.browser();
    expect((await ssoSignIn(again)).location).toBe(`${auth.baseUrl}/admin`);
    expect((await auth.sessionFor(again.sessionCookie()!))?.email).toBe(person.email);
  });

  it("refuses an ID token for another audience", async () => {
    const person = account("audience");
    await createStaffUser(testDb.db, { distributorId: org.distributor.id, email: person.email, role: "viewer" });
    idp.signInAs(person);
    idp.tamper("wrong-audience");
    const browser = auth.browser();
    const { location } = await ssoSignIn(browser);
    expect(errorOf(location)).toBe("OAuthCallback");
    expect(browser.sessionCookie()).toBeUndefined();
  });

  it("refuses an ID token signed with a key the provider does not publish", async () => {
    const person = account("signature");
    await createStaffUser(testDb.db, { distributorId: org.distributor.id, email: person.email, role: "viewer" });
    idp.signInAs(person);
    idp.tamper("bad-signature");
    const browser = auth.browser();
    expect(errorOf((await ssoSignIn(browser)).location)).toBe("OAuthCallback");
    expect(browser.sessionCookie()).toBeUndefined();
  });

  it("refuses a replayed callback (its state is spent), in the same browser and in another", async () => {
    const person = account("replay");
    await createStaffUser(testDb.db, { distributorId: org.distributor.id, email: person.email, role: "viewer" });
    idp.signInAs(person);
    const browser = auth.browser();
    const { location, callbackUrl } = await ssoSignIn(browser);
    expect(location).toBe(`${auth.baseUrl}/admin`);
    const attacker = auth.browser();
    expect(errorOf((await attacker.request(callbackUrl)).headers.get("location") ?? "")).toBe("OAuthCallback");
    expect(attacker.sessionCookie()).toBeUndefined();
    const sameBrowser = await browser.request(callbackUrl);
    expect(errorOf(sameBrowser.headers.get("location") ?? "")).toBe("OAuthCallback");
  });

  it("refuses an address outside the allowed domains, one the provider does not vouch for, and one with no account", async () => {
    idp.signInAs({ sub: `sub-${randomUUID()}`, email: `someone-${randomUUID().slice(0, 6)}@elsewhere.example` });
    expect(errorOf((await ssoSignIn(auth.browser())).location)).toBe("SsoDomain");
    const unverified = account("unverified", { email_verified: false });
    await createStaffUser(testDb.db, { distributorId: org.distributor.id, email: unverified.email, role: "viewer" });
    idp.signInAs(unverified);
    expect(errorOf((await ssoSignIn(auth.browser())).location)).toBe("SsoEmail");
    idp.signInAs(account("stranger"));
    expect(errorOf((await ssoSignIn(auth.browser())).location)).toBe("SsoNoAccount");
  });

  it("with just-in-time accounts, an allowed address signs in with the default role", async () => {
    await testDb.db.distributorSso.update({ where: { distributorId: org.distributor.id }, data: { jitRole: "viewer" } });
    try {
      const person = account("jit");
      idp.signInAs(person);
      expect((await ssoSignIn(auth.browser())).location).toBe(`${auth.baseUrl}/admin`);
      expect((await testDb.db.staffUser.findUniqueOrThrow({ where: { email: person.email } })).role).toBe("viewer");
    } finally {
      await testDb.db.distributorSso.update({ where: { distributorId: org.distributor.id }, data: { jitRole: null } });
    }
  });

  it("SSO required: passwords are refused but for break-glass accounts; single sign-on still works", async () => {
    const regular = `regular-${randomUUID().slice(0, 6)}@${DOMAIN}`;
    const glass = `glass-${randomUUID().slice(0, 6)}@${DOMAIN}`;
    await createStaffUser(testDb.db, {
      distributorId: org.distributor.id,
      email: regular,
      password: "a regular long password",
      role: "admin",
    });
    const { id } = await createStaffUser(testDb.db, {
      distributorId: org.distributor.id,
      email: glass,
      password: "a break-glass password",
      role: "owner",
    });
    await testDb.db.staffUser.update({ where: { id }, data: { breakGlass: true } });
    expect((await auth.browser().signIn(regular, "a regular long password")).ok).toBe(true);
    await testDb.db.distributorSso.update({ where: { distributorId: org.distributor.id }, data: { required: true } });
    try {
      expect(await auth.browser().signIn(regular, "a regular long password")).toEqual({ ok: false, error: "SsoRequired" });
      expect((await auth.browser().signIn(glass, "a break-glass password")).ok).toBe(true);
      idp.signInAs({ sub: `sub-${randomUUID()}`, email: regular });
      expect((await ssoSignIn(auth.browser())).location).toBe(`${auth.baseUrl}/admin`);
    } finally {
      await testDb.db.distributorSso.update({ where: { distributorId: org.distributor.id }, data: { required: false } });
    }
  });
});
