import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { housekeepingJob } from "../../server/startup/housekeeping";
import { consumeRateLimit } from "../../server/rate-limit";
import { createTestDatabase, type TestDatabase } from "../helpers/db";

let testDb: TestDatabase;

beforeAll(async () => {
  testDb = await createTestDatabase();
});
afterAll(async () => {
  await testDb?.close();
});

describe("housekeeping", () => {
  it("deletes rate-limit counters whose window started over a day ago, and keeps current ones", async () => {
    await consumeRateLimit(testDb.db, "staff-login:client:203.0.113.1", 50, 900);
    await consumeRateLimit(testDb.db, "staff-login:client:203.0.113.2", 50, 900);
    await testDb.db.$executeRaw`
      UPDATE rate_limit_counters SET window_start = now() - interval '25 hours' WHERE key = 'staff-login:client:203.0.113.1'`;

    await housekeepingJob.run(
      testDb.db,
      { slot: "2026-01-01" },
      { id: "job", kind: "housekeeping", payload: {}, attempts: 1, maxAttempts: 5 },
    );

    const keys = (await testDb.db.rateLimitCounter.findMany({ select: { key: true } })).map((row) => row.key);
    expect(keys).toEqual(["staff-login:client:203.0.113.2"]);
  });
});
