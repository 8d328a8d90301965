import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { UiSession } from "../../server/api/ui/session";
import { decryptSecret } from "../../server/app-key";
import { MFA_CODE_WRONG } from "../../server/auth/staff-mfa";
import { acceptInvitation, inviteStaff, LAST_OWNER } from "../../server/auth/staff-management";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { startStaffAuthServer } from "../helpers/staff-auth";
import { secretOfUri, totp } from "../helpers/totp";
import { createStaffSession, uiCallerAs } from "../helpers/ui";

/**
 * MFA at password sign-in (docs/admin-ui.md, "MFA") through next-auth's handler with the app's
 * options, the codes made by the tests' own RFC 6238 implementation (test/helpers/totp.ts), and
 * staff management by owners (docs/admin-ui.md, "Staff").
 */
let testDb: TestDatabase;
let auth: Awaited<ReturnType<typeof startStaffAuthServer>>;
let org: TestOrg;
const PASSWORD = "a long staff password";

beforeAll(async () => {
  testDb = await createTestDatabase();
  auth = await startStaffAuthServer(testDb.db);
  org = await createTestOrg(testDb.db);
});
afterAll(async () => {
  await auth?.close();
  await testDb?.close();
});

async function enrolled(role: "owner" | "agent" = "agent") {
  const session = await createStaffSession(testDb.db, org.distributor.id, role);
  const mfa = uiCallerAs(testDb.db, session).admin.security.mfa;
  const started = await mfa.begin();
  expect(started.qrDataUrl).toMatch(/^data:image\/png;base64,/);
  const secret = secretOfUri(started.otpauthUri);
  expect(secret).toBe(started.secret);
  await expect(mfa.confirm({ code: totp(secret, Date.now() / 1000, 5) })).rejects.toThrow(MFA_CODE_WRONG);
  const { recoveryCodes } = await mfa.confirm({ code: totp(secret) });
  return { session, secret, recoveryCodes };
}

describe("TOTP at password sign-in", () => {
  it("enrols with a QR code's seed (stored encrypted) and answers ten recovery codes once", async () => {
    const { session, secret, recoveryCodes } = await enrolled();
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    const row = await testDb.db.staffUser.findUniqueOrThrow({ where: { id: session.kind === "staff" ? session.staffId : "" } });
    expect(row.totpEnabledAt).not.toBeNull();
    expect(row.totpSecretCiphertext).not.toContain(secret);
    expect(decryptSecret(row.totpSecretCiphertext!)).toBe(secret);
    const stored = await testDb.db.staffRecoveryCode.findMany({ where: { staffUserId: row.id } });
    expect(stored.map((code) => code.codeHash).join()).not.toContain(recoveryCodes[0]!.replace("-", ""));
    expect((await uiCallerAs(testDb.db, session).admin.security.mfa.status()).recoveryCodesLeft).toBe(10);
  });

  it("asks for a code at every password sign-in, accepts a current one once, and refuses wrong and replayed ones", async () => {
    const { session, secret } = await enrolled();
    const browser = auth.browser();
    expect(await browser.signIn(session.email, PASSWORD)).toEqual({ ok: false, error: "MfaRequired" });
    expect(browser.sessionCookie()).toBeUndefined();
    expect(await browser.signIn(session.email, "a wrong password", totp(secret))).toEqual({ ok: false, error: "CredentialsSignin" });
    expect(await browser.signIn(session.email, PASSWORD, "000000" === totp(secret) ? "111111" : "000000")).toEqual({
      ok: false,
      error: "MfaInvalid",
    });
    // The next step's code: accepted (clocks a step apart), and that step is then spent.
    const code = totp(secret, Date.now() / 1000, 1);
    expect((await browser.signIn(session.email, PASSWORD, code)).ok).toBe(true);
    expect(await auth.browser().signIn(session.email, PASSWORD, code)).toEqual({ ok: false, error: "MfaInvalid" });
    expect(await auth.browser().signIn(session.email, PASSWORD, totp(secret))).toEqual({ ok: false, error: "MfaInvalid" });
  });

  it("a recovery code signs in once", async () => {
    const { session, recoveryCodes } = await enrolled();
    expect((await auth.browser().signIn(session.email, PASSWORD, recoveryCodes[3]!.toUpperCase())).ok).toBe(true);
    expect(await auth.browser().signIn(session.email, PASSWORD, recoveryCodes[3]!)).toEqual({ ok: false, error: "MfaInvalid" });
    expect((await auth.browser().signIn(session.email, PASSWORD, recoveryCodes[4]!)).ok).toBe(true);
    expect((await uiCallerAs(testDb.db, session).admin.security.mfa.status()).recoveryCodesLeft).toBe(8);
  });

  it("limits code attempts per account like sign-in: after ten (enrolment's included), refused even with the right code", async () => {
    const { session, secret } = await enrolled();
    const answers: string[] = [];
    for (let attempt = 0; attempt < 10; attempt++)
      answers.push((await auth.browser().signIn(session.email, PASSWORD, "not-a-code")).error!);
    // Enrolment spent two of the ten attempts (a wrong code and the right one).
    expect(answers).toEqual([...Array(8).fill("MfaInvalid"), "RateLimited", "RateLimited"]);
    expect(await auth.browser().signIn(session.email, PASSWORD, totp(secret))).toEqual({ ok: false, error: "RateLimited" });
  });

  it("an owner resets a colleague's MFA: the colleague's sessions end and the next sign-in asks for no code", async () => {
    const { session } = await enrolled();
    const owner = await createStaffSession(testDb.db, org.distributor.id, "owner");
    const staffId = session.kind === "staff" ? session.staffId : "";
    await testDb.db.staffSession.create({ data: { staffUserId: staffId, expiresAt: new Date(Date.now() + 3_600_000) } });
    await uiCallerAs(testDb.db, owner).admin.staff.resetMfa({ staffId });
    expect(await testDb.db.staffSession.count({ where: { staffUserId: staffId, endedAt: null } })).toBe(0);
    expect((await auth.browser().signIn(session.email, PASSWORD)).ok).toBe(true);
  });

  it("MFA required: a password session without MFA is sent to enrolment first, then works as usual", async () => {
    const other = await createTestOrg(testDb.db);
    const session = await createStaffSession(testDb.db, other.distributor.id, "owner");
    await uiCallerAs(testDb.db, session).admin.security.setMfaRequired({ required: true });
    const browser = auth.browser();
    expect((await browser.signIn(session.email, PASSWORD)).ok).toBe(true);
    const refused = await browser.call("admin.partners.list", { page: 1 });
    expect(refused.status).toBe(403);
    expect((await browser.call("admin.me")).body.result?.data.staff.mustEnrolMfa).toBe(true);
    const started = (await browser.call("admin.security.mfa.begin", {}, "mutation")).body.result!.data as { secret: string };
    expect((await browser.call("admin.security.mfa.confirm", { code: totp(started.secret) }, "mutation")).status).toBe(200);
    expect((await browser.call("admin.partners.list", { page: 1 })).status).toBe(200);
  });
});

describe("staff management", () => {
  let owner: UiSession;
  beforeAll(async () => {
    owner = await createStaffSession(testDb.db, org.distributor.id, "owner");
  });

  it("invites by e-mail: the link (72 hours) makes the account with the role and a password, once", async () => {
    const email = `invitee-${randomUUID().slice(0, 6)}@admin.example`;
    const staff = uiCallerAs(testDb.db, owner).admin.staff;
    const invitation = await staff.invite({ email, role: "billing" });
    expect(new Date(invitation.expiresAt!).getTime() - Date.now()).toBeGreaterThan(71.9 * 3_600_000);
    expect((await staff.list()).invitations.map((one) => one.email)).toContain(email);
    const token = new URL(invitation.url).searchParams.get("token")!;
    const state = await uiCallerAs(testDb.db).staffInvitation.state({ token });
    expect(state).toMatchObject({ valid: true, email });
    await uiCallerAs(testDb.db).staffInvitation.accept({ token, newPassword: "the invitee's long password" });
    expect(await uiCallerAs(testDb.db).staffInvitation.state({ token })).toMatchObject({ valid: false });
    await expect(acceptInvitation(testDb.db, { token, password: "another long password" })).rejects.toThrow(/already been used/);
    expect((await testDb.db.staffUser.findUniqueOrThrow({ where: { email } })).role).toBe("billing");
    expect((await auth.browser().signIn(email, "the invitee's long password")).ok).toBe(true);
  });

  it("an expired invitation is refused", async () => {
    const email = `late-${randomUUID().slice(0, 6)}@admin.example`;
    const { url, id } = await inviteStaff(testDb.db, {
      distributorId: org.distributor.id,
      invitedBy: { id: owner.kind === "staff" ? owner.staffId : "", email: owner.email },
      email,
      role: "agent",
    });
    await testDb.db.staffInvitation.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await expect(
      acceptInvitation(testDb.db, { token: new URL(url).searchParams.get("token")!, password: "a late long password" }),
    ).rejects.toThrow(/expired/);
  });

  it("changes a role, removes a colleague (sessions end), and always keeps an owner", async () => {
    const staff = uiCallerAs(testDb.db, owner).admin.staff;
    const colleague = await createStaffSession(testDb.db, org.distributor.id, "agent");
    const colleagueId = colleague.kind === "staff" ? colleague.staffId : "";
    expect(await staff.changeRole({ staffId: colleagueId, role: "admin" })).toMatchObject({ role: "admin" });
    await staff.remove({ staffId: colleagueId });
    expect(await testDb.db.staffUser.count({ where: { id: colleagueId } })).toBe(0);

    const lone = await createTestOrg(testDb.db);
    const onlyOwner = await createStaffSession(testDb.db, lone.distributor.id, "owner");
    const onlyOwnerId = onlyOwner.kind === "staff" ? onlyOwner.staffId : "";
    const own = uiCallerAs(testDb.db, onlyOwner).admin.staff;
    await expect(own.changeRole({ staffId: onlyOwnerId, role: "admin" })).rejects.toThrow(LAST_OWNER);
    await expect(own.remove({ staffId: onlyOwnerId })).rejects.toThrow(LAST_OWNER);
    await expect(own.remove({ staffId: colleagueId })).rejects.toThrow("Staff member not found");
  });
});
