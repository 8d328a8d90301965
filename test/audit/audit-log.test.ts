import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pruneAuditEntries } from "../../server/audit/append-only";
import { AUDIT_CSV_COLUMNS, recordAudit } from "../../server/audit/log";
import { housekeepingJob } from "../../server/startup/housekeeping";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { restTestBed } from "../helpers/rest";
import { createStaffSession, uiCallerAs } from "../helpers/ui";

const { testDb, server } = restTestBed();
let orgA: TestOrg;
let orgB: TestOrg;

beforeAll(async () => {
  orgA = await createTestOrg(testDb.db, "A");
  orgB = await createTestOrg(testDb.db, "B");
});
afterAll(() => {
  delete process.env.AUDIT_RETENTION_DAYS;
});

async function rowAt(distributorId: string, action: string, createdAt?: Date) {
  await recordAudit(testDb.db, {
    distributorId,
    actor: { kind: "staff", staffId: randomUUID(), email: "someone@admin.example" },
    clientAddress: "192.0.2.7",
    action,
    target: { type: "partner", id: randomUUID() },
    before: { name: "Old, with a comma" },
    after: { name: '=Formula "quoted"', apiKey: "expmon_p_secret" },
  });
  if (createdAt) {
    // Rows are written now: the test backdates one with the trigger switched off for that statement, as only the
    // table's owner could (the application never does).
    await testDb.db.$executeRawUnsafe("ALTER TABLE audit_entries DISABLE TRIGGER audit_entries_append_only");
    await testDb.db.$executeRaw`UPDATE audit_entries SET created_at = ${createdAt} WHERE action = ${action}`;
    await testDb.db.$executeRawUnsafe("ALTER TABLE audit_entries ENABLE TRIGGER audit_entries_append_only");
  }
}

describe("append-only", () => {
  it("refuses UPDATE, DELETE and TRUNCATE of audit rows", async () => {
    await rowAt(orgA.distributor.id, "test.append-only");
    await expect(testDb.db.$executeRaw`UPDATE audit_entries SET action = 'changed' WHERE action = 'test.append-only'`).rejects.toThrow(
      /append-only/,
    );
    await expect(testDb.db.$executeRaw`DELETE FROM audit_entries WHERE action = 'test.append-only'`).rejects.toThrow(/append-only/);
    await expect(testDb.db.$executeRawUnsafe("TRUNCATE audit_entries")).rejects.toThrow(/append-only/);
    await expect(testDb.db.auditEntry.deleteMany({})).rejects.toThrow(/append-only/);
    expect(await testDb.db.auditEntry.count({ where: { action: "test.append-only" } })).toBe(1);
  });

  it("a prune's cut-off allows deleting only rows older than it", async () => {
    await rowAt(orgA.distributor.id, "test.cutoff");
    await expect(
      testDb.db.$transaction(async (tx) => {
        await tx.$executeRaw`SELECT set_config('audit.prune_before', (now() - interval '1 day')::text, true)`;
        await tx.$executeRaw`DELETE FROM audit_entries WHERE action = 'test.cutoff'`;
      }),
    ).rejects.toThrow(/append-only/);
    expect(await testDb.db.auditEntry.count({ where: { action: "test.cutoff" } })).toBe(1);
  });

  it("housekeeping prunes rows past AUDIT_RETENTION_DAYS (default 400) and keeps the others", async () => {
    const day = 86_400_000;
    await rowAt(orgA.distributor.id, "test.old", new Date(Date.now() - 401 * day));
    await rowAt(orgA.distributor.id, "test.kept", new Date(Date.now() - 399 * day));
    await housekeepingJob.run(testDb.db, { slot: "2026-12-01" } as never, {} as never);
    expect(await testDb.db.auditEntry.count({ where: { action: "test.old" } })).toBe(0);
    expect(await testDb.db.auditEntry.count({ where: { action: "test.kept" } })).toBe(1);
    process.env.AUDIT_RETENTION_DAYS = "30";
    expect(await pruneAuditEntries(testDb.db, 30)).toBeGreaterThanOrEqual(1);
    expect(await testDb.db.auditEntry.count({ where: { action: "test.kept" } })).toBe(0);
  });
});

describe("GET /api/v1/distributors/audit", () => {
  it("exports the distributor's own rows as JSON, oldest first, in the window", async () => {
    const since = new Date().toISOString();
    await rowAt(orgA.distributor.id, "test.export-a1");
    await rowAt(orgB.distributor.id, "test.export-b");
    await rowAt(orgA.distributor.id, "test.export-a2");
    const res = await server.api.get(`/api/v1/distributors/audit?since=${encodeURIComponent(since)}`, orgA.distributor.headers);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    const actions = res.body.data.map((row: { action: string }) => row.action);
    expect(actions).toEqual(["test.export-a1", "test.export-a2"]);
    expect(res.body.data[0]).toMatchObject({
      actor_kind: "staff",
      actor: "someone@admin.example",
      client_address: "192.0.2.7",
      target_type: "partner",
      before: { name: "Old, with a comma" },
      after: { name: '=Formula "quoted"', apiKey: "[redacted]" },
    });
    const none = await server.api.get(
      `/api/v1/distributors/audit?since=${encodeURIComponent(since)}&until=${encodeURIComponent(since)}`,
      orgA.distributor.headers,
    );
    expect(none.body).toEqual({ success: false, error: "until must be later than since" });
  });

  it("exports CSV with a header line, quoted fields and no secret", async () => {
    const since = new Date().toISOString();
    await rowAt(orgA.distributor.id, "test.csv");
    const response = await fetch(`${server.baseUrl}/api/v1/distributors/audit?format=csv&since=${encodeURIComponent(since)}`, {
      headers: orgA.distributor.headers,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const lines = (await response.text()).trimEnd().split("\r\n");
    expect(lines[0]).toBe(AUDIT_CSV_COLUMNS.join(","));
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(",staff,");
    expect(lines[1]).toContain('"{""name"":""Old, with a comma""}"');
    expect(lines[1]).toContain("test.csv");
    expect(lines[1]).not.toContain("expmon_p_secret");
  });

  it("refuses bad parameters with the spec's envelope, and other credentials", async () => {
    expect((await server.api.get("/api/v1/distributors/audit?since=yesterday", orgA.distributor.headers)).body).toEqual({
      success: false,
      error: "since must be an ISO 8601 date-time",
    });
    expect((await server.api.get("/api/v1/distributors/audit?format=xml", orgA.distributor.headers)).body).toEqual({
      success: false,
      error: "format must be csv or json",
    });
    expect((await server.api.get("/api/v1/distributors/audit", orgA.partner.headers)).status).toBe(401);
  });
});

describe("the admin UI's audit page", () => {
  it("lists the distributor's rows newest first, filtered by actor, action, target and time", async () => {
    const staff = await createStaffSession(testDb.db, orgA.distributor.id, "viewer");
    const since = new Date().toISOString();
    await rowAt(orgA.distributor.id, "test.filter.one");
    await rowAt(orgA.distributor.id, "test.filter.two");
    await rowAt(orgB.distributor.id, "test.filter.other");
    const audit = uiCallerAs(testDb.db, staff).admin.audit;
    const all = await audit.list({ since, action: "test.filter." });
    expect(all.entries.map((entry) => entry.action)).toEqual(["test.filter.two", "test.filter.one"]);
    expect((await audit.list({ since, action: "test.filter.one" })).entries).toHaveLength(1);
    expect((await audit.list({ since, actor: "SOMEONE@admin" })).entries.length).toBeGreaterThanOrEqual(2);
    expect((await audit.list({ since, actor: "nobody" })).entries).toEqual([]);
    const target = all.entries[0]!.targetId!;
    expect((await audit.list({ target })).entries.map((entry) => entry.action)).toEqual(["test.filter.two"]);
    expect((await audit.list({ until: since, action: "test.filter." })).entries).toEqual([]);
  });
});
