import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HIBP_KEY_MISSING, catalogueSyncSchedule, syncCatalogue } from "../../server/breaches/exposure-index/catalogue-sync";
import { getCatalogueBreach } from "../../server/breaches/exposure-index/lookups";
import { HibpBreachSource } from "../../server/breaches/exposure-index/sources/hibp";
import { parseAdminCommand } from "../../server/cli/admin";
import { runScheduleIfDue } from "../../server/jobs/schedules";
import { jobCatalogue } from "../../server/startup/job-catalogue";
import { hibpBreach, seedExposures } from "../helpers/breach-fixtures";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { serveOnLoopback } from "../helpers/http";
import { quietly, runJobsUntilIdle } from "../helpers/jobs";

const API_KEY = "hibp-sync-key";
const USER_AGENT = "exposure-monitor-sync-test";

/** Answers GET /breaches like HIBP: the list it is given, or the failure it is told to give. */
function standInHibp() {
  const state = {
    breaches: [] as unknown[],
    failure: undefined as undefined | { status: number; body: string; contentType?: string },
    requests: [] as Array<{ method: string; path: string; apiKey: string | null; userAgent: string | null }>,
  };
  const handler = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    state.requests.push({
      method: request.method,
      path: url.pathname,
      apiKey: request.headers.get("hibp-api-key"),
      userAgent: request.headers.get("user-agent"),
    });
    if (url.pathname !== "/breaches") return new Response(null, { status: 404 });
    if (state.failure) {
      return new Response(state.failure.body, {
        status: state.failure.status,
        headers: { "content-type": state.failure.contentType ?? "text/plain" },
      });
    }
    return new Response(JSON.stringify(state.breaches), { status: 200, headers: { "content-type": "application/json" } });
  };
  return { state, handler };
}

const UNCHANGED = hibpBreach("Unchanged", { BreachDate: "2019-05-01" });
const CHANGING = hibpBreach("Changing", { PwnCount: 1000, IsVerified: false });
const CHANGED = {
  ...CHANGING,
  PwnCount: 2500,
  IsVerified: true,
  ModifiedDate: "2025-06-01T12:00:00Z",
  Description: "Now <b>verified</b> &amp; larger.",
};
const FRESH = hibpBreach("Fresh", {
  Title: "Fresh Forum",
  BreachDate: "2025-03-01",
  DataClasses: ["Email addresses", "Passwords", "Telepathic impressions"],
});

let testDb: TestDatabase;
let hibp: ReturnType<typeof standInHibp>;
let server: Awaited<ReturnType<typeof serveOnLoopback>>;
let source: HibpBreachSource;

beforeAll(async () => {
  testDb = await createTestDatabase();
  await seedExposures(testDb.db, [UNCHANGED, CHANGING], {});
  hibp = standInHibp();
  server = await serveOnLoopback(hibp.handler);
  source = new HibpBreachSource({ apiKey: API_KEY, baseUrl: server.baseUrl, userAgent: USER_AGENT });
});
afterAll(async () => {
  await server?.close();
  await testDb?.close();
});

async function catalogueSnapshot() {
  return testDb.db.breach.findMany({ orderBy: { name: "asc" } });
}

/** Runs `work` with the HIBP variables set as given (undefined: unset), then restores them. */
async function withHibpEnv<T>(env: { key?: string; url?: string }, work: () => Promise<T>): Promise<T> {
  const previous = { key: process.env.HIBP_API_KEY, url: process.env.HIBP_API_URL, agent: process.env.HIBP_USER_AGENT };
  const set = (name: string, value: string | undefined) => (value === undefined ? delete process.env[name] : (process.env[name] = value));
  set("HIBP_API_KEY", env.key);
  set("HIBP_API_URL", env.url);
  set("HIBP_USER_AGENT", USER_AGENT);
  try {
    return await work();
  } finally {
    set("HIBP_API_KEY", previous.key);
    set("HIBP_API_URL", previous.url);
    set("HIBP_USER_AGENT", previous.agent);
  }
}

describe("catalogue sync from HIBP", () => {
  it("adds new breaches and updates changed ones, counting each right, with the key and user agent sent", async () => {
    const before = new Map((await catalogueSnapshot()).map((breach) => [breach.name, breach]));
    hibp.state.breaches = [UNCHANGED, CHANGED, FRESH];
    hibp.state.requests.length = 0;

    expect(await syncCatalogue(testDb.db, source)).toEqual({ added: 1, updated: 1 });

    expect(hibp.state.requests).toEqual([{ method: "GET", path: "/breaches", apiKey: API_KEY, userAgent: USER_AGENT }]);
    const after = new Map((await catalogueSnapshot()).map((breach) => [breach.name, breach]));
    expect([...after.keys()]).toEqual(["Changing", "Fresh", "Unchanged"]);
    // the unchanged breach was not written at all
    expect(after.get("Unchanged")!.updatedAt).toEqual(before.get("Unchanged")!.updatedAt);
    // the changed one keeps its uuid and takes the new fields
    const changed = after.get("Changing")!;
    expect(changed.id).toBe(before.get("Changing")!.id);
    expect({ pwnCount: changed.pwnCount, isVerified: changed.isVerified, descriptionText: changed.descriptionText }).toEqual({
      pwnCount: 2500n,
      isVerified: true,
      descriptionText: "Now verified & larger.",
    });
    expect(changed.modifiedDate.toISOString()).toBe("2025-06-01T12:00:00.000Z");
    // a data class new to us gets a category, as on import
    expect(await testDb.db.breachCategory.findUnique({ where: { name: "Telepathic impressions" } })).toMatchObject({ group: "other" });
    // the added breach (only it) is queued for matching against active customers, in the sync's transaction
    const matching = await testDb.db.job.findMany({ where: { kind: "breaches.match-new-exposures" }, select: { payload: true } });
    expect(matching).toEqual([{ payload: { breachIds: [after.get("Fresh")!.id] } }]);
  });

  it("gives a new breach its texts in every locale as an imported one has them", async () => {
    const english = await getCatalogueBreach(testDb.db, { name: "Fresh" }, "en-GB");
    const finnish = await getCatalogueBreach(testDb.db, { name: "Fresh" }, "fi-FI");
    expect(finnish.title).toBe("Fresh Forum");
    expect(finnish.description).toBe(english.description);
    expect(finnish.description).toBe("In January 2024, Fresh suffered a breach & lost data.");
    expect(finnish.nextSteps[0]).toMatch(/^Vaihda tämän tilin salasana/);
  });

  it("counts nothing when HIBP has nothing new", async () => {
    expect(await syncCatalogue(testDb.db, source)).toEqual({ added: 0, updated: 0 });
  });

  it.each([
    ["an error status", { status: 503, body: "Service Unavailable" }, "503"],
    ["a refused key", { status: 401, body: "Access denied due to invalid hibp-api-key." }, "401"],
    ["a body that is not JSON", { status: 200, body: "<html>maintenance</html>", contentType: "text/html" }, "not JSON"],
    ["JSON that is not a list", { status: 200, body: '{"statusCode":200}', contentType: "application/json" }, "not an array"],
  ])("leaves the catalogue as it was when HIBP answers with %s", async (_name, failure, message) => {
    const before = await catalogueSnapshot();
    hibp.state.breaches = [hibpBreach("NeverStored"), { ...UNCHANGED, PwnCount: 1 }];
    hibp.state.failure = failure;
    try {
      await expect(syncCatalogue(testDb.db, source)).rejects.toThrow(message);
    } finally {
      hibp.state.failure = undefined;
    }
    expect(await catalogueSnapshot()).toEqual(before);
  });

  it("rejects a malformed record and merges the rest", async () => {
    hibp.state.breaches = [UNCHANGED, CHANGED, FRESH, { Name: "NoDate", Title: "No date" }, hibpBreach("Later")];
    expect(await quietly(() => syncCatalogue(testDb.db, source))).toEqual({ added: 1, updated: 0 });
    const names = (await catalogueSnapshot()).map((breach) => breach.name);
    expect(names).toContain("Later");
    expect(names).not.toContain("NoDate");
  });
});

describe("the catalogue-sync schedule", () => {
  const slotTime = new Date("2026-11-21T01:30:00Z");

  it("runs daily at 01:00 UTC, an hour before the daily scan", () => {
    expect(jobCatalogue.kinds).toContain("breaches.sync-catalogue");
    expect(catalogueSyncSchedule).toMatchObject({ name: "catalogue-sync", every: "day", hourUtc: 1 });
  });

  it("does nothing without HIBP_API_KEY", async () => {
    hibp.state.breaches = [hibpBreach("ScheduledWithoutKey")];
    hibp.state.requests.length = 0;
    await withHibpEnv({ url: server.baseUrl }, async () => {
      expect(await runScheduleIfDue(testDb.db, catalogueSyncSchedule, slotTime)).toBe(true);
      await runJobsUntilIdle(testDb.db);
    });
    expect(hibp.state.requests).toEqual([]);
    expect(await testDb.db.breach.count({ where: { name: "ScheduledWithoutKey" } })).toBe(0);
  });

  it("syncs the catalogue with HIBP_API_KEY set, once per day", async () => {
    hibp.state.breaches = [hibpBreach("ScheduledWithKey")];
    hibp.state.requests.length = 0;
    const nextDay = new Date("2026-11-22T01:30:00Z");
    await withHibpEnv({ key: API_KEY, url: server.baseUrl }, async () => {
      expect(await runScheduleIfDue(testDb.db, catalogueSyncSchedule, nextDay)).toBe(true);
      expect(await runScheduleIfDue(testDb.db, catalogueSyncSchedule, nextDay)).toBe(false);
      await quietly(() => runJobsUntilIdle(testDb.db));
    });
    expect(hibp.state.requests.map((request) => [request.path, request.apiKey])).toEqual([["/breaches", API_KEY]]);
    expect(await testDb.db.breach.count({ where: { name: "ScheduledWithKey" } })).toBe(1);
  });
});

describe("admin sync-catalogue", () => {
  it("refuses to run without HIBP_API_KEY", async () => {
    const { command, values } = parseAdminCommand(["sync-catalogue"]);
    await withHibpEnv({ url: server.baseUrl }, async () => {
      await expect(command.run(testDb.db, values)).rejects.toThrow(HIBP_KEY_MISSING);
    });
  });

  it('prints {"added": N, "updated": M} on stdout, and exits 1 with the reason on stderr without a key', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "admin-sync-"));
    try {
      hibp.state.breaches = [UNCHANGED, CHANGED, FRESH];
      const run = (key: string | undefined) =>
        adminScript(["sync-catalogue"], {
          DATA_DIR: dataDir,
          DATABASE_URL: "",
          HIBP_API_KEY: key ?? "",
          HIBP_API_URL: server.baseUrl,
          HIBP_USER_AGENT: USER_AGENT,
        });
      const first = await run(API_KEY);
      expect(first.status, first.stderr).toBe(0);
      expect(first.stdout).toBe('{"added":3,"updated":0}\n');
      const second = await run(API_KEY);
      expect(second.stdout).toBe('{"added":0,"updated":0}\n');
      const withoutKey = await run(undefined);
      expect(withoutKey.status).toBe(1);
      expect(withoutKey.stdout).toBe("");
      expect(withoutKey.stderr).toContain(HIBP_KEY_MISSING);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});

/** The admin script in a child process, run asynchronously: the stand-in HIBP it calls lives in this process. */
function adminScript(argv: string[], env: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join("node_modules", "tsx", "dist", "cli.mjs"), "scripts/admin.ts", ...argv],
      { env: { ...process.env, ...env }, encoding: "utf8" },
      (error, stdout, stderr) => resolve({ status: error ? (typeof error.code === "number" ? error.code : null) : 0, stdout, stderr }),
    );
  });
}
