import { InngestTestEngine } from "@inngest/test";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { createInngestFunctions } from "../../inngest/functions";
import { createJobCatalogue } from "../../server/jobs/catalogue";
import { defineJob } from "../../server/jobs/definition";
import { claimDueJobs, jobType } from "../../server/jobs/queue";
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
