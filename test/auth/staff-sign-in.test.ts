import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContext } from "../../server/api/context";
import { createUiCaller } from "../../server/api/ui/root";
import { accountSlowdownMs, authenticateStaff, createStaffUser } from "../../server/auth/staff";
import type { UiSession } from "../../server/api/ui/session";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";

let testDb: TestDatabase;
let org: TestOrg;
let staffId: string;
const PASSWORD = "a long staff password";

beforeAll(async () => {
  testDb = await createTestDatabase();
  org = await createTestOrg(testDb.db, "Staffed");
  staffId = (await createStaffUser(testDb.db, { distributorId: org.distributor.id, email: "ops@staffed.example", password: PASSWORD })).id;
});
afterAll(async () => {
  await testDb?.close();
});

describe("staff sign-in", () => {
  it("accepts the right password, case-insensitively on the e-mail, and records the sign-in", async () => {
    const result = await authenticateStaff(testDb.db, { email: " OPS@staffed.example ", password: PASSWORD, clientAddress: "203.0.113.1" });
    expect(result).toEqual({
      ok: true,
      staff: { id: staffId, email: "ops@staffed.example", distributorId: org.distributor.id, name: null },
    });
    expect((await testDb.db.staffUser.findUniqueOrThrow({ where: { id: staffId } })).lastLoginAt).toBeInstanceOf(Date);
  });

  it("refuses a wrong password and an unknown e-mail alike", async () => {
    expect(await authenticateStaff(testDb.db, { email: "ops@staffed.example", password: "wrong", clientAddress: "203.0.113.2" })).toEqual({
      ok: false,
      reason: "invalid",
    });
    expect(
      await authenticateStaff(testDb.db, { email: "nobody@staffed.example", password: PASSWORD, clientAddress: "203.0.113.2" }),
    ).toEqual({
      ok: false,
      reason: "invalid",
    });
  });

  it("refuses an e-mail with a NUL or another control character as a wrong one, without an error", async () => {
    for (const email of ["ops@staffed.example\u0000", "ops\r\n@staffed.example"]) {
      expect(await authenticateStaff(testDb.db, { email, password: PASSWORD, clientAddress: "203.0.113.3" })).toEqual({
        ok: false,
        reason: "invalid",
      });
    }
  });

  it("stops guessing on one account from one client after 10 attempts in the window, even with the right password; not its owner elsewhere", async () => {
    const email = "target@staffed.example";
    await createStaffUser(testDb.db, { distributorId: org.distributor.id, email, password: PASSWORD });
    for (let attempt = 0; attempt < 10; attempt++) {
      expect((await authenticateStaff(testDb.db, { email, password: `guess ${attempt}`, clientAddress: "198.51.100.1" })).ok).toBe(false);
    }
    const blocked = await authenticateStaff(testDb.db, { email, password: PASSWORD, clientAddress: "198.51.100.1" });
    expect(blocked).toMatchObject({ ok: false, reason: "rate-limited" });
    expect(blocked.ok === false && blocked.retryAfterSeconds).toBeGreaterThan(0);
    expect((await authenticateStaff(testDb.db, { email, password: PASSWORD, clientAddress: "198.51.100.2" })).ok).toBe(true);
  });

  it("slows an account's sign-ins after its 10th failure in the window, by at most 2 s, and refuses none for it", () => {
    expect([0, 10, 11, 15, 20, 1000].map(accountSlowdownMs)).toEqual([0, 0, 200, 1000, 2000, 2000]);
  });
});

describe("staff procedures", () => {
  const staffSession = (): UiSession => ({
    kind: "staff",
    staffId,
    distributorId: org.distributor.id,
    email: "ops@staffed.example",
    name: null,
  });

  it("answer a signed-in staff member, scoped to their distributor", async () => {
    const caller = createUiCaller(createContext(testDb.db, new Headers(), "req", staffSession()));
    const me = await caller.admin.me();
    expect(me).toEqual({
      staff: { id: staffId, email: "ops@staffed.example", role: "owner", mfaEnrolled: false, mustEnrolMfa: false },
      distributor: { id: org.distributor.id, name: "Staffed distributor" },
    });
  });

  it("refuse a request without a staff session", async () => {
    const caller = createUiCaller(createContext(testDb.db, new Headers(), "req"));
    await expect(caller.admin.me()).rejects.toThrow("Sign in to continue");
  });
});
