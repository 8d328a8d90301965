import { hash, verify } from "@node-rs/argon2";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authenticateStaff, createStaffUser } from "../../server/auth/staff";
import {
  PASSWORD_TOO_COMMON,
  PASSWORD_TOO_LONG,
  PASSWORD_TOO_SHORT,
  PASSWORD_UNCHANGED,
  WRONG_CURRENT_PASSWORD,
} from "../../server/auth/staff-passwords";
import type { UiSession } from "../../server/api/ui/session";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { clientError, startUiServer } from "../helpers/ui";

let testDb: TestDatabase;
let org: TestOrg;
let ui: Awaited<ReturnType<typeof startUiServer>>;
const PASSWORD = "a long staff password";
let counter = 0;

beforeAll(async () => {
  testDb = await createTestDatabase();
  org = await createTestOrg(testDb.db, "Passwords");
  ui = await startUiServer(testDb.db);
});
afterAll(async () => {
  await ui?.close();
  await testDb?.close();
});

async function staffWith(password = PASSWORD): Promise<UiSession & { kind: "staff" }> {
  const email = `staff-${++counter}@passwords.example`;
  const { id } = await createStaffUser(testDb.db, { distributorId: org.distributor.id, email, password });
  return { kind: "staff", staffId: id, distributorId: org.distributor.id, email, name: null };
}

async function storedHash(staffId: string): Promise<string> {
  return (await testDb.db.staffUser.findUniqueOrThrow({ where: { id: staffId } })).passwordHash!;
}

describe("changing one's password in the admin UI (over /api/trpc)", () => {
  it("takes the right current password and a new one that follows the rule", async () => {
    const staff = await staffWith();
    const answer = await ui
      .clientAs(staff)
      .admin.account.changePassword.mutate({ currentPassword: PASSWORD, newPassword: "iloveyou1234 but longer" });
    expect(answer).toEqual({ endedSessions: 0 });
    expect(await verify(await storedHash(staff.staffId), "iloveyou1234 but longer")).toBe(true);
  });

  it("refuses a wrong current password with a clear message and changes nothing", async () => {
    const staff = await staffWith();
    const before = await storedHash(staff.staffId);
    const error = await clientError(
      ui.clientAs(staff).admin.account.changePassword.mutate({ currentPassword: "not my password", newPassword: "a good new passphrase" }),
    );
    expect({ status: error.data?.httpStatus, message: error.message }).toEqual({ status: 400, message: WRONG_CURRENT_PASSWORD });
    expect(await storedHash(staff.staffId)).toBe(before);
  });

  it.each([
    ["too short (11 characters)", "elevenchars", PASSWORD_TOO_SHORT],
    ["on the common-password list", "qwerty123456", PASSWORD_TOO_COMMON],
    ["on the list in other capitals", "PassWord1234", PASSWORD_TOO_COMMON],
    ["longer than 256 characters", "x".repeat(257), PASSWORD_TOO_LONG],
  ])("refuses a new password %s at its field", async (_case, newPassword, message) => {
    const staff = await staffWith();
    const error = await clientError(ui.clientAs(staff).admin.account.changePassword.mutate({ currentPassword: PASSWORD, newPassword }));
    expect(error.data?.httpStatus).toBe(400);
    expect((error.data as { fieldErrors?: Record<string, string> }).fieldErrors).toEqual({ newPassword: message });
  });

  it("refuses the current password as the new one", async () => {
    const staff = await staffWith();
    const error = await clientError(
      ui.clientAs(staff).admin.account.changePassword.mutate({ currentPassword: PASSWORD, newPassword: PASSWORD }),
    );
    expect(error.message).toBe(PASSWORD_UNCHANGED);
  });

  it("stops guessing the current password after 10 attempts in 15 minutes", async () => {
    const staff = await staffWith();
    const client = ui.clientAs(staff);
    for (let attempt = 0; attempt < 10; attempt++) {
      const error = await clientError(
        client.admin.account.changePassword.mutate({ currentPassword: `guess ${attempt}`, newPassword: "a good new passphrase" }),
      );
      expect(error.message).toBe(WRONG_CURRENT_PASSWORD);
    }
    const blocked = await clientError(
      client.admin.account.changePassword.mutate({ currentPassword: PASSWORD, newPassword: "a good new passphrase" }),
    );
    expect(blocked.data?.httpStatus).toBe(429);
    expect(blocked.message).toContain("Too many attempts at the current password");
  });

  it("needs a staff session", async () => {
    const error = await clientError(
      ui.clientAs(undefined).admin.account.changePassword.mutate({ currentPassword: PASSWORD, newPassword: "x" }),
    );
    expect({ status: error.data?.httpStatus, message: error.message }).toEqual({ status: 401, message: "Sign in to continue" });
  });
});

describe("the rule applies to new passwords only", () => {
  it("an existing account with an 11-character password still signs in, and can move to a new one", async () => {
    const email = "old-rule@passwords.example";
    const created = await testDb.db.staffUser.create({
      data: { distributorId: org.distributor.id, email, passwordHash: await hash("elevenchars") },
      select: { id: true },
    });
    expect(await authenticateStaff(testDb.db, { email, password: "elevenchars", clientAddress: "192.0.2.7" })).toMatchObject({ ok: true });
    const staff: UiSession = { kind: "staff", staffId: created.id, distributorId: org.distributor.id, email, name: null };
    await ui.clientAs(staff).admin.account.changePassword.mutate({ currentPassword: "elevenchars", newPassword: "twelve chars or more" });
    expect(await authenticateStaff(testDb.db, { email, password: "twelve chars or more", clientAddress: "192.0.2.7" })).toMatchObject({
      ok: true,
    });
  });

  it("creating a staff account follows it", async () => {
    const create = (password: string) =>
      createStaffUser(testDb.db, { distributorId: org.distributor.id, email: `new-${++counter}@passwords.example`, password });
    await expect(create("elevenchars")).rejects.toThrow(`Validation failed: password: ${PASSWORD_TOO_SHORT}`);
    await expect(create("password1234")).rejects.toThrow(`Validation failed: password: ${PASSWORD_TOO_COMMON}`);
    await expect(create("twelve chars ok")).resolves.toMatchObject({ id: expect.any(String) });
  });
});
