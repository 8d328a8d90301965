import { InngestTestEngine } from "@inngest/test";
import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { Prisma } from "../../server/db/client";
import { createInngestFunctions } from "../../inngest/functions";
import { createJobCatalogue } from "../../server/jobs/catalogue";
import { defineJob } from "../../server/jobs/definition";
import { claimDueJobs, completeJob, failJob, jobType } from "../../server/jobs/queue";
import { startInProcessRunner } from "../../server/jobs/runner";
import { Sleeper } from "../../server/jobs/sleeper";
import { currentSlot, runScheduleIfDue, type Schedule } from "../../server/jobs/schedules";
import { runDueJobs } from "../../server/jobs/worker";
import { createTestDatabase, type TestDatabase } from "../helpers/db";

let testDb: TestDatabase;
const ran: Array<{ kind: string; payload: unknown }> = [];
let flakyFailuresLeft = 0;

const numbered = z.object({ n: z.number().int() });

const recordJob = defineJob({
  kind: "test.record",
  payload: numbered,
  async run(_db, payload) {
    ran.push({ kind: "test.record", payload });
  },
});
const flakyJob = defineJob({
  kind: "test.flaky",
  payload: numbered,
  maxAttempts: 3,
  retryDelayMs: () => 0,
  async run(_db, payload) {
    if (flakyFailuresLeft-- > 0) throw new Error("transient failure");
    ran.push({ kind: "test.flaky", payload });
  },
});

/** Jobs that run until the test opens their gate. */
const gate = { started: 0, open: () => undefined as void, opened: Promise.resolve() };
function closeGate() {
  gate.started = 0;
  gate.opened = new Promise<void>((resolve) => (gate.open = resolve));
}
const gatedJob = defineJob({
  kind: "test.gated",
  payload: numbered,
  async run(_db, payload) {
    gate.started++;
    await gate.opened;
    ran.push({ kind: "test.gated", payload });
  },
});

/** What the worker, the runner and the drain function of these tests run. */
const catalogue = createJobCatalogue({ jobs: [recordJob, flakyJob, gatedJob], schedules: [] });

beforeAll(async () => {
  testDb = await createTestDatabase();
});
afterAll(async () => {
  await testDb?.close();
});
beforeEach(async () => {
  ran.length = 0;
  await testDb.db.job.deleteMany();
});

const quietly = async <T>(work: () => Promise<T>): Promise<T> => {
  const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
  try {
    return await work();
  } finally {
    stderr.mockRestore();
  }
};

describe("the job queue", () => {
  it("runs a queued job once and records it as succeeded", async () => {
    const id = await recordJob.enqueue(testDb.db, { n: 1 });
    expect(await runDueJobs(testDb.db, catalogue)).toBe(1);
    expect(ran).toEqual([{ kind: "test.record", payload: { n: 1 } }]);
    const job = await testDb.db.job.findUniqueOrThrow({ where: { id: id! } });
    expect(job).toMatchObject({ status: "succeeded", attempts: 1, dedupeKey: null });
    expect(await runDueJobs(testDb.db, catalogue)).toBe(0);
  });

  it("queues nothing more while a job with the same dedupe key is pending, and again after it finished", async () => {
    expect(await recordJob.enqueue(testDb.db, { n: 1 }, { dedupeKey: "same" })).toBeDefined();
    expect(await recordJob.enqueue(testDb.db, { n: 2 }, { dedupeKey: "same" })).toBeUndefined();
    await runDueJobs(testDb.db, catalogue);
    expect(ran).toHaveLength(1);
    expect(await recordJob.enqueue(testDb.db, { n: 3 }, { dedupeKey: "same" })).toBeDefined();
  });

  it("is written or not with the transaction that queues it", async () => {
    await expect(
      testDb.db.$transaction(async (tx) => {
        await recordJob.enqueue(tx, { n: 1 });
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await testDb.db.job.count()).toBe(0);
  });

  it("leaves jobs alone until they are due, and jobs of kinds this process does not know", async () => {
    await recordJob.enqueue(testDb.db, { n: 1 }, { runAt: new Date(Date.now() + 60_000) });
    await jobType("test.unknown-kind", z.object({})).enqueue(testDb.db, {});
    expect(await runDueJobs(testDb.db, catalogue)).toBe(0);
    expect(await testDb.db.job.count({ where: { status: "pending" } })).toBe(2);
  });

  it("retries a failing job and fails it for good after maxAttempts", async () => {
    flakyFailuresLeft = 1;
    const retried = await flakyJob.enqueue(testDb.db, { n: 1 });
    await quietly(() => runDueJobs(testDb.db, catalogue));
    expect(await testDb.db.job.findUniqueOrThrow({ where: { id: retried! } })).toMatchObject({
      status: "pending",
      attempts: 1,
      lastError: "transient failure",
    });
    await runDueJobs(testDb.db, catalogue);
    expect(await testDb.db.job.findUniqueOrThrow({ where: { id: retried! } })).toMatchObject({ status: "succeeded", attempts: 2 });

    flakyFailuresLeft = 10;
    const doomed = await flakyJob.enqueue(testDb.db, { n: 2 });
    for (let i = 0; i < 3; i++) await quietly(() => runDueJobs(testDb.db, catalogue));
    expect(await testDb.db.job.findUniqueOrThrow({ where: { id: doomed! } })).toMatchObject({ status: "failed", attempts: 3 });
    expect(await quietly(() => runDueJobs(testDb.db, catalogue))).toBe(0);
  });

  it("fails a job whose stored payload its schema refuses at once, logged, without running it", async () => {
    const rows = await testDb.db.$queryRaw<Array<{ id: string }>>`
      INSERT INTO jobs (kind, payload, max_attempts, updated_at)
      VALUES ('test.flaky', '{"n": "one"}'::jsonb, 3, now()), ('test.record', '{}'::jsonb, 5, now())
      RETURNING id::text`;
    const logged: string[] = [];
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => logged.push(String(chunk)) > 0);
    try {
      expect(await runDueJobs(testDb.db, catalogue)).toBe(2);
    } finally {
      stderr.mockRestore();
    }
    expect(ran).toEqual([]);
    const jobs = await testDb.db.job.findMany({ where: { id: { in: rows.map((row) => row.id) } }, orderBy: { kind: "asc" } });
    expect(jobs.map(({ kind, status, attempts }) => ({ kind, status, attempts }))).toEqual([
      { kind: "test.flaky", status: "failed", attempts: 1 },
      { kind: "test.record", status: "failed", attempts: 1 },
    ]);
    expect(jobs[0]!.lastError).toMatch(/^malformed test\.flaky payload: .*n/);
    expect(jobs[1]!.lastError).toMatch(/^malformed test\.record payload: .*n/);
    expect(logged.filter((line) => line.includes("job attempt failed") && line.includes("malformed"))).toHaveLength(2);
    expect(await runDueJobs(testDb.db, catalogue)).toBe(0);
  });

  it("never gives one job to two claimers, and takes a job back whose lease ran out", async () => {
    for (let n = 0; n < 10; n++) await recordJob.enqueue(testDb.db, { n });
    const [first, second] = await Promise.all([
      claimDueJobs(testDb.db, { limit: 6, leaseMs: 60_000, kinds: ["test.record"] }),
      claimDueJobs(testDb.db, { limit: 6, leaseMs: 60_000, kinds: ["test.record"] }),
    ]);
    const ids = [...first, ...second].map((job) => job.id);
    expect(ids).toHaveLength(10);
    expect(new Set(ids).size).toBe(10);

    // a worker that claimed a job and died: its lease runs out and the job is claimed again
    await testDb.db.job.updateMany({ data: { leaseUntil: new Date(Date.now() - 1000) } });
    const reclaimed = await claimDueJobs(testDb.db, { limit: 20, leaseMs: 60_000, kinds: ["test.record"] });
    expect(reclaimed).toHaveLength(10);
    expect(reclaimed.every((job) => job.attempts === 2)).toBe(true);
  });
});

describe("follow-ups of deduplicated jobs requested while they run", () => {
  const followUpJob = jobType("test.follow-up", numbered, { followUpWhileRunning: true, maxAttempts: 2 });
  const plainJob = jobType("test.plain", numbered);
  const KEY = "thing:1";
  const claim = (kind: string) => claimDueJobs(testDb.db, { limit: 10, leaseMs: 60_000, kinds: [kind] });
  /** The kind's rows, finished ones first (a follow-up is written after the job it follows). */
  const rowsOf = async (kind: string) =>
    (await testDb.db.job.findMany({ where: { kind }, orderBy: { createdAt: "asc" } })).map(
      ({ status, payload, dedupeKey, attempts, followUpPayload }) => ({ status, payload, dedupeKey, attempts, followUpPayload }),
    );

  it("joins a pending job; while it runs, any number of requests lead to one follow-up with the last payload, after it", async () => {
    const id = await followUpJob.enqueue(testDb.db, { n: 1 }, { dedupeKey: KEY });
    expect(id).toBeDefined();
    expect(await followUpJob.enqueue(testDb.db, { n: 2 }, { dedupeKey: KEY })).toBeUndefined();
    const [running] = await claim("test.follow-up");
    expect(running).toMatchObject({ id, payload: { n: 1 } });

    for (let n = 3; n <= 52; n++) expect(await followUpJob.enqueue(testDb.db, { n }, { dedupeKey: KEY })).toBeUndefined();
    expect(await claim("test.follow-up")).toEqual([]); // nothing runs beside it
    await completeJob(testDb.db, id!);
    expect(await rowsOf("test.follow-up")).toEqual([
      { status: "succeeded", payload: { n: 1 }, dedupeKey: null, attempts: 1, followUpPayload: null },
      { status: "pending", payload: { n: 52 }, dedupeKey: KEY, attempts: 0, followUpPayload: null },
    ]);

    expect(await followUpJob.enqueue(testDb.db, { n: 53 }, { dedupeKey: KEY })).toBeUndefined(); // joins the follow-up
    const [followUp] = await claim("test.follow-up");
    await completeJob(testDb.db, followUp!.id);
    expect(await testDb.db.job.count({ where: { kind: "test.follow-up", status: { not: "succeeded" } } })).toBe(0);
  });

  it("drops a request while the job runs for a type without the option (one run per key)", async () => {
    const id = await plainJob.enqueue(testDb.db, { n: 1 }, { dedupeKey: KEY });
    await claim("test.plain");
    expect(await plainJob.enqueue(testDb.db, { n: 2 }, { dedupeKey: KEY })).toBeUndefined();
    await completeJob(testDb.db, id!);
    expect(await rowsOf("test.plain")).toEqual([
      { status: "succeeded", payload: { n: 1 }, dedupeKey: null, attempts: 1, followUpPayload: null },
    ]);
  });

  it("after a lease ran out: the new claim takes in what was requested before it, and a late finish of the first claim queues one follow-up, never two", async () => {
    const id = await followUpJob.enqueue(testDb.db, { n: 1 }, { dedupeKey: KEY });
    await claim("test.follow-up"); // a worker that then dies, or is slow
    await followUpJob.enqueue(testDb.db, { n: 2 }, { dedupeKey: KEY });
    await testDb.db.job.update({ where: { id: id! }, data: { leaseUntil: new Date(Date.now() - 1000) } });
    const [retaken] = await claim("test.follow-up");
    expect(retaken).toMatchObject({ id, attempts: 2 });
    // This run reads the input after the request committed: nothing more is owed for it.
    expect(await rowsOf("test.follow-up")).toEqual([
      { status: "running", payload: { n: 1 }, dedupeKey: KEY, attempts: 2, followUpPayload: null },
    ]);

    await followUpJob.enqueue(testDb.db, { n: 3 }, { dedupeKey: KEY }); // during the second run
    await completeJob(testDb.db, id!); // the first worker, late
    await completeJob(testDb.db, id!); // the second
    expect(await rowsOf("test.follow-up")).toEqual([
      { status: "succeeded", payload: { n: 1 }, dedupeKey: null, attempts: 2, followUpPayload: null },
      { status: "pending", payload: { n: 3 }, dedupeKey: KEY, attempts: 0, followUpPayload: null },
    ]);
  });

  it("a retry takes in the requests made during the failed attempt; a job failed for good still gets its follow-up", async () => {
    const id = await followUpJob.enqueue(testDb.db, { n: 1 }, { dedupeKey: KEY });
    const [first] = await claim("test.follow-up");
    await followUpJob.enqueue(testDb.db, { n: 2 }, { dedupeKey: KEY });
    expect(await failJob(testDb.db, first!, new Error("transient"), 0)).toBe("retrying");
    expect(await rowsOf("test.follow-up")).toEqual([
      { status: "pending", payload: { n: 1 }, dedupeKey: KEY, attempts: 1, followUpPayload: null },
    ]);

    const [second] = await claim("test.follow-up");
    await followUpJob.enqueue(testDb.db, { n: 3 }, { dedupeKey: KEY });
    expect(await failJob(testDb.db, second!, new Error("still failing"), 0)).toBe("failed");
    expect(await rowsOf("test.follow-up")).toEqual([
      { status: "failed", payload: { n: 1 }, dedupeKey: null, attempts: 2, followUpPayload: null },
      { status: "pending", payload: { n: 3 }, dedupeKey: KEY, attempts: 0, followUpPayload: null },
    ]);
    expect((await claim("test.follow-up")).map((job) => job.id)).not.toContain(id);
  });

  it("takes a key given twice in one enqueueMany or insertSelected once", async () => {
    const queued = await followUpJob.enqueueMany(testDb.db, [
      { payload: { n: 1 }, dedupeKey: "a" },
      { payload: { n: 2 }, dedupeKey: "a" },
      { payload: { n: 3 }, dedupeKey: "b" },
      { payload: { n: 4 } },
    ]);
    expect(queued).toBe(3);
    await claim("test.follow-up");
    await testDb.db.$executeRaw(
      followUpJob.insertSelected(
        Prisma.sql`SELECT jsonb_build_object('n', n) AS payload, CASE WHEN n < 8 THEN 'a' END AS dedupe_key FROM generate_series(5, 9) AS n`,
      ),
    );
    const rows = await testDb.db.job.findMany({ where: { kind: "test.follow-up" } });
    expect(
      rows
        .filter((row) => row.status === "running")
        .map((row) => row.dedupeKey)
        .sort(),
    ).toEqual(["a", "b", null]);
    expect([5, 6, 7]).toContain((rows.find((row) => row.dedupeKey === "a")!.followUpPayload as { n: number }).n);
    const pending = rows.filter((row) => row.status === "pending").map((row) => (row.payload as { n: number }).n);
    expect(pending.sort()).toEqual([8, 9]);
  });

  // Two sessions at once: PostgreSQL (PGlite runs one transaction at a time).
  it.runIf(Boolean(process.env.TEST_DATABASE_URL))(
    "waits for a request still in its transaction: the job's end queues its follow-up, and a pending job it joined is not claimed before it commits",
    async () => {
      const requester = new pg.Client({ connectionString: testDb.url });
      await requester.connect();
      const request = async (n: number) => {
        const { sql, params } = followUpJob.insertStatement({ n }, { dedupeKey: KEY });
        await requester.query("BEGIN");
        await requester.query(sql, params);
      };
      const waitForLockWaiter = () =>
        vi.waitFor(
          async () => {
            const waiting = await requester.query("SELECT 1 FROM pg_locks WHERE locktype IN ('tuple', 'transactionid') AND NOT granted");
            expect(waiting.rowCount).toBeGreaterThan(0);
          },
          { timeout: 10_000 },
        );
      try {
        const id = await followUpJob.enqueue(testDb.db, { n: 1 }, { dedupeKey: KEY });
        await claim("test.follow-up");
        await request(2);
        const completing = completeJob(testDb.db, id!);
        await waitForLockWaiter();
        await requester.query("COMMIT");
        await completing;
        expect((await rowsOf("test.follow-up")).map(({ status, payload }) => ({ status, payload }))).toEqual([
          { status: "succeeded", payload: { n: 1 } },
          { status: "pending", payload: { n: 2 } },
        ]);

        // The change that joined the pending follow-up is not committed yet: no worker may start
        // it, or its run would read the input without that change.
        await request(3);
        expect(await claim("test.follow-up")).toEqual([]);
        await requester.query("COMMIT");
        expect(await claim("test.follow-up")).toMatchObject([{ payload: { n: 2 } }]);
      } finally {
        await requester.end();
      }
    },
  );
});

describe("schedules", () => {
  const seen: string[] = [];
  const scheduled: Schedule = {
    name: "test-daily",
    every: "day",
    hourUtc: 6,
    enqueue: async (db, slot) => {
      seen.push(slot);
      await recordJob.enqueue(db, { n: 0 });
    },
  };

  it("knows which slot is open", () => {
    expect(currentSlot(scheduled, new Date("2026-11-21T05:59:00Z"))).toBeUndefined();
    expect(currentSlot(scheduled, new Date("2026-11-21T06:00:00Z"))).toBe("2026-11-21");
    expect(currentSlot({ ...scheduled, every: "month", hourUtc: 0 }, new Date("2026-12-01T00:00:00Z"))).toBe("2026-12");
    expect(currentSlot({ ...scheduled, every: "hour" }, new Date("2026-11-21T13:45:00Z"))).toBe("2026-11-21T13");
  });

  it("runs each slot once however many times it is reached", async () => {
    const at = new Date("2026-11-21T07:00:00Z");
    const results = await Promise.all([1, 2, 3].map(() => runScheduleIfDue(testDb.db, scheduled, at)));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(seen).toEqual(["2026-11-21"]);
    expect(await testDb.db.job.count({ where: { kind: "test.record" } })).toBe(1);
    expect(await runScheduleIfDue(testDb.db, scheduled, new Date("2026-11-22T07:00:00Z"))).toBe(true);
  });
});

describe("drivers", () => {
  it("the in-process runner runs a job soon after it is queued and woken", async () => {
    const runner = startInProcessRunner(testDb.db, catalogue, { pollMs: 60_000, scheduleEveryMs: 3_600_000 });
    try {
      await recordJob.enqueue(testDb.db, { n: 42 });
      runner.wake();
      await vi.waitFor(() => expect(ran).toContainEqual({ kind: "test.record", payload: { n: 42 } }), { timeout: 10_000 });
    } finally {
      await runner.stop();
    }
  });

  it("a stopped runner finishes the jobs it is running and hands back the ones it claimed but had not started", async () => {
    closeGate();
    for (let n = 0; n < 6; n++) await gatedJob.enqueue(testDb.db, { n });
    const runner = startInProcessRunner(testDb.db, catalogue, { pollMs: 60_000, scheduleEveryMs: 3_600_000, concurrency: 2 });
    await vi.waitFor(() => expect(gate.started).toBe(2), { timeout: 10_000 });
    const stopped = runner.stop();
    gate.open();
    await stopped;

    expect(ran).toHaveLength(2);
    const jobs = await testDb.db.job.findMany({ where: { kind: "test.gated" } });
    expect(jobs.filter((job) => job.status === "succeeded")).toHaveLength(2);
    const handedBack = jobs.filter((job) => job.status !== "succeeded");
    expect(handedBack).toHaveLength(4);
    for (const job of handedBack) expect(job).toMatchObject({ status: "pending", attempts: 0, leaseUntil: null });
    expect(await runDueJobs(testDb.db, catalogue)).toBe(4); // due at once, for this process or any other
  });

  it("the Inngest drain function runs every due job in steps", async () => {
    for (let n = 0; n < 3; n++) await recordJob.enqueue(testDb.db, { n });
    const [drainJobs] = createInngestFunctions(async () => testDb.db, catalogue);
    const engine = new InngestTestEngine({ function: drainJobs! });
    const { result } = await engine.execute();
    expect(result).toEqual({ ran: 3 });
    expect(ran.map((entry) => entry.payload)).toEqual(expect.arrayContaining([{ n: 0 }, { n: 1 }, { n: 2 }]));
    expect(await testDb.db.job.count({ where: { status: "succeeded" } })).toBe(3);
  });

  it("the Inngest drain function fails a job with a malformed payload without running it", async () => {
    await recordJob.enqueue(testDb.db, { n: 1 });
    await testDb.db.$executeRaw`INSERT INTO jobs (kind, payload, updated_at) VALUES ('test.record', '{"n": 1.5}'::jsonb, now())`;
    const [drainJobs] = createInngestFunctions(async () => testDb.db, catalogue);
    const { result } = await quietly(() => new InngestTestEngine({ function: drainJobs! }).execute());
    expect(result).toEqual({ ran: 2 });
    expect(ran).toEqual([{ kind: "test.record", payload: { n: 1 } }]);
    const failed = await testDb.db.job.findMany({ where: { status: "failed" }, select: { payload: true, lastError: true } });
    expect(failed).toEqual([{ payload: { n: 1.5 }, lastError: expect.stringMatching(/^malformed test\.record payload/) }]);
  });
});

describe("Sleeper", () => {
  it("wake() ends a sleep early", async () => {
    const sleeper = new Sleeper();
    const sleeping = sleeper.sleep(3_600_000);
    sleeper.wake();
    await sleeping;
  });

  it("remembers a wake that came while nobody slept, so the next sleep returns at once, and only that one", async () => {
    const sleeper = new Sleeper();
    sleeper.wake();
    await sleeper.sleep(3_600_000);
    let ended = false;
    const second = sleeper.sleep(20).then(() => (ended = true));
    expect(ended).toBe(false);
    await second;
  });
});
