import { beforeAll, describe, expect, it } from "vitest";
import { createStaffUser } from "../../server/auth/staff";
import { inBulkTransaction } from "../../server/db/bulk-write";
import { readRows } from "../../server/db/direct-read";
import { isUniqueViolation } from "../../server/db/errors";
import { createBillingCode } from "../../server/distributors/billing-codes";
import { badRequest } from "../../server/errors";
import { onboardBody } from "../helpers/customers";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { restTestBed } from "../helpers/rest";

const { testDb, server } = restTestBed();
let org: TestOrg;

beforeAll(async () => {
  org = await createTestOrg(testDb.db, "Unique");
});

const AT_ONCE = 4;

/** Each outcome of `attempts` run at once: "ok", or the rejection's status and message. */
async function outcomesAtOnce(attempt: () => Promise<unknown>): Promise<string[]> {
  const results = await Promise.allSettled(Array.from({ length: AT_ONCE }, attempt));
  return results
    .map((result) => {
      if (result.status === "fulfilled") return "ok";
      const error = result.reason as { status?: number; message?: string };
      return `${error.status ?? "no status"} ${error.message ?? String(error)}`;
    })
    .sort();
}

describe("creates of one unique thing at once", () => {
  it("onboarding one reference: one customer, the other requests 409", async () => {
    const body = onboardBody({ customerReference: "RACE-1" });
    const responses = await Promise.all(
      Array.from({ length: AT_ONCE }, () => server.api.post("/api/v1/integrations/customer/onboard", body, org.partner.headers)),
    );
    expect(responses.map((res) => `${res.status} ${res.body.error ?? "ok"}`).sort()).toEqual([
      "200 ok",
      ...Array(AT_ONCE - 1).fill('409 A customer with reference "RACE-1" already exists'),
    ]);
    expect(await testDb.db.customer.count({ where: { reference: "RACE-1" } })).toBe(1);
  });

  it("staff users with one e-mail: one account, the others 409", async () => {
    const outcomes = await outcomesAtOnce(() =>
      createStaffUser(testDb.db, { distributorId: org.distributor.id, email: "race@unique.example", password: "correct horse battery" }),
    );
    expect(outcomes).toEqual([...Array(AT_ONCE - 1).fill("409 A staff user with e-mail race@unique.example already exists"), "ok"]);
  });

  it("billing codes with one code: one code, the others 409", async () => {
    const outcomes = await outcomesAtOnce(() =>
      createBillingCode(testDb.db, { distributorId: org.distributor.id, code: "RACE", price: 1 }),
    );
    expect(outcomes).toEqual([...Array(AT_ONCE - 1).fill("409 Billing code RACE already exists"), "ok"]);
  });
});

/** The error `attempt` rejects with (fails the test when it resolves). */
async function errorOf(attempt: () => Promise<unknown>): Promise<unknown> {
  try {
    await attempt();
  } catch (error) {
    return error;
  }
  throw new Error("expected the statement to fail");
}

describe("isUniqueViolation", () => {
  const STAFF_EMAIL_KEY = "staff_users_email_key";
  const taken = "taken@unique.example";
  const insertTaken = (id = "00000000-0000-4000-8000-000000000001") =>
    `INSERT INTO staff_users (id, distributor_id, email, password_hash) VALUES ('${id}', '${org.distributor.id}', '${taken}', 'x')`;

  beforeAll(async () => {
    await testDb.db.staffUser.create({ data: { distributorId: org.distributor.id, email: taken, passwordHash: "x" } });
  });

  it.each<[string, () => Promise<unknown>]>([
    [
      "a model write (P2002)",
      () => testDb.db.staffUser.create({ data: { distributorId: org.distributor.id, email: taken, passwordHash: "x" } }),
    ],
    [
      "a model write in a transaction (P2002)",
      () =>
        testDb.db.$transaction((tx) =>
          tx.staffUser.create({ data: { distributorId: org.distributor.id, email: taken, passwordHash: "x" } }),
        ),
    ],
    ["a raw statement (P2010)", () => testDb.db.$executeRawUnsafe(insertTaken())],
    ["a raw query in a transaction (P2010)", () => testDb.db.$transaction((tx) => tx.$queryRawUnsafe(`${insertTaken()} RETURNING id`))],
    ["a statement sent to the driver directly (23505)", () => readRows(testDb.db, `${insertTaken()} RETURNING id`, [])],
    ["a bulk transaction's statement (23505)", () => inBulkTransaction(testDb.db, (tx) => tx.execute(insertTaken()))],
  ])("recognises %s, with the constraint's name", async (_form, attempt) => {
    const error = await errorOf(attempt);
    expect(isUniqueViolation(error)).toBe(true);
    expect(isUniqueViolation(error, STAFF_EMAIL_KEY)).toBe(true);
    expect(isUniqueViolation(error, "billing_codes_distributor_id_code_key")).toBe(false);
  });

  it("recognises no other error", async () => {
    const notNull = await errorOf(() =>
      testDb.db.$executeRawUnsafe(`INSERT INTO staff_users (id, email) VALUES (gen_random_uuid(), 'x@unique.example')`),
    );
    const foreignKey = await errorOf(() =>
      testDb.db.staffUser.create({
        data: { distributorId: "00000000-0000-4000-8000-0000000000ff", email: "fk@unique.example", passwordHash: "x" },
      }),
    );
    const direct = await errorOf(() => readRows(testDb.db, "SELECT 1/0", []));
    for (const error of [notNull, foreignKey, direct, badRequest("Validation failed"), new Error("duplicate key"), undefined, "23505"]) {
      expect(isUniqueViolation(error)).toBe(false);
    }
  });
});
