import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, Prisma, type Database } from "../../server/db/client";
import { consumeRateLimit, rateLimitLeaseSize, takeUpTo } from "../../server/rate-limit";
import { createTestDatabase, type TestDatabase } from "../helpers/db";

let testDb: TestDatabase;
let keyNumber = 0;

beforeAll(async () => {
  testDb = await createTestDatabase();
});

afterAll(async () => {
  await testDb?.close();
});

const newKey = () => `test:${++keyNumber}:${Date.now()}`;
const countedInDatabase = async (key: string) => (await testDb.db.rateLimitCounter.findUniqueOrThrow({ where: { key } })).count;

describe("consumeRateLimit", () => {
  it("below 200 per window counts every call in the database and refuses past the limit", async () => {
    const key = newKey();
    const decisions = [];
    for (let i = 0; i < 7; i++) decisions.push(await consumeRateLimit(testDb.db, key, 5));
    expect(decisions.map((decision) => decision.allowed)).toEqual([true, true, true, true, true, false, false]);
    expect(await countedInDatabase(key)).toBe(7);
    const retryAfter = decisions[6]!.retryAfterSeconds;
    expect(retryAfter >= 1 && retryAfter <= 60).toBe(true);
  });

  it("takes calls from the database a lease at a time, shared by concurrent calls", async () => {
    const key = newKey();
    const decisions = await Promise.all(Array.from({ length: 50 }, () => consumeRateLimit(testDb.db, key, 1_000)));
    expect(decisions.every((decision) => decision.allowed)).toBe(true);
    expect(await countedInDatabase(key)).toBe(50); // five leases of 10, not 50 leases
    await consumeRateLimit(testDb.db, key, 1_000);
    expect(await countedInDatabase(key)).toBe(60);
  });

  it("tells each call how many are left in the window, below and above the lease threshold", async () => {
    for (const limit of [5, 1_000]) {
      const key = newKey();
      const decisions = [];
      for (let i = 0; i < 25; i++) decisions.push(await consumeRateLimit(testDb.db, key, limit));
      const allowed = Math.min(limit, 25);
      expect(decisions.map((decision) => decision.remaining)).toEqual(
        Array.from({ length: 25 }, (_, index) => Math.max(0, limit - index - 1)),
      );
      expect(decisions.filter((decision) => decision.allowed)).toHaveLength(allowed);
      expect(decisions.every((decision) => decision.limit === limit && decision.windowSeconds === 60)).toBe(true);
    }
  });

  it("allows exactly the limit in a window, then again in the next", async () => {
    const key = newKey();
    const allowedIn = async (calls: number) => {
      let allowed = 0;
      for (let i = 0; i < calls; i++) if ((await consumeRateLimit(testDb.db, key, 200, 5)).allowed) allowed++;
      return allowed;
    };
    // a 5 s window: the 230 calls (about 115 counter queries) must fit in one window even on a busy machine
    expect(await allowedIn(230)).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 5_100));
    expect(await allowedIn(10)).toBe(10);
  });
});

describe.runIf(Boolean(process.env.TEST_DATABASE_URL))("consumeRateLimit across processes (two connection pools)", () => {
  let other: Database;

  beforeAll(async () => {
    other = await openDatabase({ url: testDb.url! });
  });

  afterAll(async () => {
    await other?.close();
  });

  it("shares one limit: never more than the limit, at most a lease per process short of it", async () => {
    const key = newKey();
    const limit = 1_000;
    let allowed = 0;
    for (let i = 0; i < 1_200; i++) {
      const db = i % 3 === 0 ? other.prisma : testDb.db;
      if ((await consumeRateLimit(db, key, limit)).allowed) allowed++;
    }
    expect(allowed).toBeLessThanOrEqual(limit);
    expect(allowed).toBeGreaterThanOrEqual(limit - 2 * (rateLimitLeaseSize(limit) - 1));
  });
});

describe("takeUpTo", () => {
  it("counts only the items not already covered, in their order, and grants what fits in the window", async () => {
    const key = newKey();
    const covered = Prisma.sql`item.value = ANY(${["b@x.test"]}::text[])`;
    const first = await takeUpTo(testDb.db, key, ["a@x.test", "b@x.test", "c@x.test"], 3, {
      alreadyCovered: covered,
      ownTransaction: true,
    });
    expect(first).toEqual({ needing: ["a@x.test", "c@x.test"], room: 2 });
    expect(await countedInDatabase(key)).toBe(2);
    const second = await takeUpTo(testDb.db, key, ["d@x.test", "e@x.test"], 3);
    expect(second).toEqual({ needing: ["d@x.test", "e@x.test"], room: 1 });
    expect(await countedInDatabase(key)).toBe(4);
  });

  it("takes nothing when every item is covered, and a rolled-back transaction spends nothing", async () => {
    const key = newKey();
    expect(await takeUpTo(testDb.db, key, ["a@x.test"], 3, { alreadyCovered: Prisma.sql`true` })).toEqual({ needing: [], room: 0 });
    expect(await testDb.db.rateLimitCounter.findUnique({ where: { key } })).toBeNull();
    await expect(
      testDb.db.$transaction(async (tx) => {
        await takeUpTo(tx, key, ["a@x.test", "b@x.test"], 3);
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await testDb.db.rateLimitCounter.findUnique({ where: { key } })).toBeNull();
  });

  it("starts a new window once the last one has ended", async () => {
    const key = newKey();
    await takeUpTo(testDb.db, key, ["a@x.test", "b@x.test"], 2, { windowSeconds: 1 });
    expect((await takeUpTo(testDb.db, key, ["c@x.test"], 2, { windowSeconds: 1 })).room).toBe(0);
    await testDb.db.$executeRaw`UPDATE rate_limit_counters SET window_start = now() - interval '2 seconds' WHERE key = ${key}`;
    expect(await takeUpTo(testDb.db, key, ["c@x.test"], 2, { windowSeconds: 1 })).toEqual({ needing: ["c@x.test"], room: 1 });
    expect(await countedInDatabase(key)).toBe(1);
  });
});
