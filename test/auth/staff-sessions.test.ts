import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStaffUser, removeStaffUser } from "../../server/auth/staff";
import { createStaffPasswordResetLink, resetStaffPassword } from "../../server/auth/staff-password-reset";
import { deleteSpentStaffSignInRecords } from "../../server/auth/staff-sessions";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { startStaffAuthServer, type StaffBrowser } from "../helpers/staff-auth";

/**
 * Issue 25, finding 5: a staff cookie must stop working when its session ends, not up to 12 hours
 * later. Each case signs in through next-auth's real handler over HTTP, keeps the cookie, ends the
 * session one way, and presents the old cookie again.
 */
let testDb: TestDatabase;
let org: TestOrg;
let server: Awaited<ReturnType<typeof startStaffAuthServer>>;
const PASSWORD = "a long staff password";
let counter = 0;

beforeAll(async () => {
  testDb = await createTestDatabase();
  org = await createTestOrg(testDb.db, "Sessions");
  server = await startStaffAuthServer(testDb.db);
});
afterAll(async () => {
  await server?.close();
  await testDb?.close();
});

async function newStaff(): Promise<string> {
  const email = `staff-${++counter}@sessions.example`;
  await createStaffUser(testDb.db, { distributorId: org.distributor.id, email, password: PASSWORD });
  return email;
}

async function signedIn(email: string, password = PASSWORD): Promise<StaffBrowser> {
  const browser = server.browser();
  expect(await browser.signIn(email, password)).toEqual({ ok: true, error: undefined });
  return browser;
}

/** The admin header's procedure with a cookie: 200 while the session is live, 401 once it is over. */
async function meStatus(browser: StaffBrowser): Promise<number> {
  return (await browser.call("admin.me")).status;
}

/** The same cookie value in a browser of its own (an attacker's copy). */
function copyOf(browser: StaffBrowser): StaffBrowser {
  const copy = server.browser();
  copy.setSessionCookie(browser.sessionCookie()!);
  return copy;
}

describe("an old staff cookie is refused", () => {
  it("after signing out", async () => {
    const email = await newStaff();
    const browser = await signedIn(email);
    const stolen = copyOf(browser);
    expect(await meStatus(stolen)).toBe(200);
    expect(await server.sessionFor(stolen.sessionCookie()!)).toMatchObject({ kind: "staff", email });

    await browser.signOut();
    expect(browser.sessionCookie()).toBeUndefined();
    expect(await meStatus(stolen)).toBe(401);
    expect(await server.sessionFor(stolen.sessionCookie()!)).toBeUndefined();
  });

  it("after a password change in another session; the session that changed it goes on", async () => {
    const email = await newStaff();
    const laptop = await signedIn(email);
    const phone = await signedIn(email);
    const changed = await laptop.call(
      "admin.account.changePassword",
      { currentPassword: PASSWORD, newPassword: "a brand new staff passphrase" },
      "mutation",
    );
    expect(changed.status).toBe(200);
    expect(changed.body.result?.data).toEqual({ endedSessions: 1 });
    expect(await meStatus(phone)).toBe(401);
    expect(await meStatus(laptop)).toBe(200);
    // and the new password is the one that signs in
    expect((await server.browser().signIn(email, PASSWORD)).ok).toBe(false);
    expect(await meStatus(await signedIn(email, "a brand new staff passphrase"))).toBe(200);
  });

  it("after a password reset with a link (every session)", async () => {
    const email = await newStaff();
    const browser = await signedIn(email);
    const token = new URL((await createStaffPasswordResetLink(testDb.db, email)).url).searchParams.get("token")!;
    await resetStaffPassword(testDb.db, { token, newPassword: "reset to this passphrase" });
    expect(await meStatus(browser)).toBe(401);
  });

  it("after the staff account is removed", async () => {
    const email = await newStaff();
    const browser = await signedIn(email);
    await removeStaffUser(testDb.db, email);
    expect(await meStatus(browser)).toBe(401);
  });

  it("after 'sign out everywhere', in every session, the one that asked included", async () => {
    const email = await newStaff();
    const first = await signedIn(email);
    const second = await signedIn(email);
    const other = await signedIn(await newStaff());
    const answer = await first.call("admin.account.signOutEverywhere", undefined, "mutation");
    expect(answer.body.result?.data).toEqual({ endedSessions: 2 });
    expect(await meStatus(first)).toBe(401);
    expect(await meStatus(second)).toBe(401);
    expect(await meStatus(other)).toBe(200);
    // signing in again starts a new session
    expect(await meStatus(await signedIn(email))).toBe(200);
  });

  it("after its hard end (12 hours after sign-in), however recently it was used", async () => {
    const browser = await signedIn(await newStaff());
    expect(await meStatus(browser)).toBe(200);
    await testDb.db.$executeRaw`UPDATE staff_sessions SET expires_at = now() - interval '1 second' WHERE ended_at IS NULL`;
    expect(await meStatus(browser)).toBe(401);
  });
});

describe("housekeeping", () => {
  it("deletes sessions and reset links spent over 30 days ago, and keeps the rest", async () => {
    const email = await newStaff();
    await signedIn(email);
    await createStaffPasswordResetLink(testDb.db, email);
    await testDb.db.$executeRaw`UPDATE staff_sessions SET ended_at = now() - interval '31 days', end_reason = 'sign-out'`;
    await testDb.db.$executeRaw`UPDATE staff_password_resets SET expires_at = now() - interval '31 days'`;
    const live = await signedIn(email);
    const deleted = await deleteSpentStaffSignInRecords(testDb.db);
    expect(deleted.sessions).toBeGreaterThan(0);
    expect(deleted.resets).toBeGreaterThan(0);
    expect(await testDb.db.staffSession.count()).toBe(1);
    expect(await meStatus(live)).toBe(200);
  });
});
