import { randomUUID } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { appRouter } from "../../server/api/root";
import { createRestDispatcher } from "../../server/api/rest/dispatcher";
import { openDatabase } from "../../server/db/client";
import { PendingMigrationsError } from "../../server/db/instance";
import { migrationDirectoryNames } from "../../server/db/migration-status";
import { SYSTEM_PLANS } from "../../server/distributors/system-plans";
import { createTestDatabase } from "../helpers/db";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { apiClient, serveRestOnLoopback } from "../helpers/http";
import { restTestBed, startRestServer } from "../helpers/rest";

const { testDb, server } = restTestBed();
let org: TestOrg;

beforeAll(async () => {
  org = await createTestOrg(testDb.db);
});

describe("GET /api/v1/health (readiness)", () => {
  it("answers ok without credentials", async () => {
    const res = await server.api.get("/api/v1/health");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, status: "ok", database: "ok" });
  });

  it("answers 503 'Database migrations pending' while a migration this server ships is not applied, 200 again once it is", async () => {
    const stale = await createTestDatabase();
    const staleServer = await startRestServer(stale.db);
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      const [last] = await stale.db.$queryRaw<Array<{ id: string; migration_name: string }>>`
        SELECT id, migration_name FROM _prisma_migrations ORDER BY migration_name DESC LIMIT 1`;
      expect(last!.migration_name).toBe((await migrationDirectoryNames()).at(-1));
      await stale.db.$executeRaw`UPDATE _prisma_migrations SET rolled_back_at = now() WHERE id = ${last!.id}`;
      const rolledBack = await staleServer.api.get("/api/v1/health");
      expect({ status: rolledBack.status, body: rolledBack.body }).toEqual({
        status: 503,
        body: { success: false, error: "Database migrations pending" },
      });

      await stale.db.$executeRaw`DELETE FROM _prisma_migrations WHERE id = ${last!.id}`;
      const missing = await staleServer.api.get("/api/v1/health");
      expect({ status: missing.status, body: missing.body }).toEqual({
        status: 503,
        body: { success: false, error: "Database migrations pending" },
      });

      await stale.db.$executeRaw`
        INSERT INTO _prisma_migrations (id, checksum, finished_at, migration_name, applied_steps_count)
        VALUES (${randomUUID()}, 'checksum', now(), ${last!.migration_name}, 1)`;
      expect((await staleServer.api.get("/api/v1/health")).status).toBe(200);
    } finally {
      stderr.mockRestore();
      await staleServer.close();
      await stale.close();
    }
  });

  it("stays ready when the database has a migration this server does not ship (a newer replica applied it)", async () => {
    await testDb.db.$executeRaw`
      INSERT INTO _prisma_migrations (id, checksum, finished_at, migration_name, applied_steps_count)
      VALUES (${randomUUID()}, 'checksum', now(), '29991231000000_from_a_newer_release', 1)`;
    try {
      const res = await server.api.get("/api/v1/health");
      expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: { success: true, status: "ok", database: "ok" } });
    } finally {
      await testDb.db.$executeRaw`DELETE FROM _prisma_migrations WHERE migration_name = '29991231000000_from_a_newer_release'`;
    }
  });

  it("answers 503 in the envelope when the database is unreachable", async () => {
    const broken = await openDatabase({ pglite: new PGlite() });
    await broken.close();
    const brokenServer = await serveRestOnLoopback(createRestDispatcher({ router: appRouter, getDb: () => broken.prisma }));
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      const res = await apiClient(brokenServer.baseUrl).get("/api/v1/health");
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ success: false, error: "Database unavailable" });
    } finally {
      stderr.mockRestore();
      await brokenServer.close();
    }
  });

  it.each([
    ["cannot be opened", new Error("connect ECONNREFUSED 127.0.0.1:5432"), "Database unavailable"],
    [
      "has migrations pending, so the server refuses it",
      new PendingMigrationsError("(test)", ["29991231000000_next"]),
      "Database migrations pending",
    ],
  ])("answers 503 while the database %s (other paths: their failure text)", async (_, failure, message) => {
    const unopened = await serveRestOnLoopback(createRestDispatcher({ router: appRouter, getDb: () => Promise.reject(failure) }));
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      const api = apiClient(unopened.baseUrl);
      const health = await api.get("/api/v1/health");
      expect({ status: health.status, body: health.body }).toEqual({ status: 503, body: { success: false, error: message } });
      const plans = await api.get("/api/v1/integrations/partner/plans");
      expect({ status: plans.status, body: plans.body }).toEqual({
        status: 500,
        body: { success: false, error: "Failed to retrieve plans" },
      });
    } finally {
      stderr.mockRestore();
      await unopened.close();
    }
  });

  it("answers 503 'Database unavailable' when the PostgreSQL server refuses connections", async () => {
    const refused = await openDatabase({ url: "postgresql://postgres@127.0.0.1:9/nowhere" });
    const refusedServer = await serveRestOnLoopback(createRestDispatcher({ router: appRouter, getDb: () => refused.prisma }));
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      const res = await apiClient(refusedServer.baseUrl).get("/api/v1/health");
      expect({ status: res.status, body: res.body }).toEqual({ status: 503, body: { success: false, error: "Database unavailable" } });
    } finally {
      stderr.mockRestore();
      await refusedServer.close();
      await refused.close();
    }
  });
});

const planShape = {
  id: expect.stringMatching(/^[0-9a-f-]{36}$/),
  displayName: expect.any(String),
  features: expect.arrayContaining([{ feature_name: expect.any(String) }]),
  isSystemDefault: expect.any(Boolean),
  planType: expect.any(String),
  status: "active",
  allowsInsurance: expect.any(Boolean),
};

describe("distributor plans", () => {
  it("lists the seeded system plans with exactly one system default", async () => {
    const res = await server.api.get("/api/v1/distributors/plans", org.distributor.headers);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["data", "success"]);
    expect(res.body.data.map((plan: { planType: string }) => plan.planType)).toEqual(SYSTEM_PLANS.map((plan) => plan.planType));
    for (const plan of res.body.data) {
      expect(plan).toEqual(planShape);
      expect(Object.keys(plan).sort()).toEqual(Object.keys(planShape).sort());
    }
    expect(res.body.data.filter((plan: { isSystemDefault: boolean }) => plan.isSystemDefault)).toHaveLength(1);
  });

  it("gets one plan by id", async () => {
    const [first] = (await server.api.get("/api/v1/distributors/plans", org.distributor.headers)).body.data;
    const res = await server.api.get(`/api/v1/distributors/plans/${first.id}`, org.distributor.headers);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: first });
  });

  it("answers 400 'Plan ID must be valid' for a malformed id", async () => {
    const res = await server.api.get("/api/v1/distributors/plans/not-a-uuid", org.distributor.headers);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: "Plan ID must be valid" });
  });

  it("answers 404 'Plan not found' for an unknown id", async () => {
    const res = await server.api.get(`/api/v1/distributors/plans/${crypto.randomUUID()}`, org.distributor.headers);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, error: "Plan not found" });
  });

  it("requires distributor credentials", async () => {
    const res = await server.api.get("/api/v1/distributors/plans", org.partner.headers);
    expect(res.status).toBe(401);
    expect(res.body.error).toBe("Distributor ID and API key are required in headers");
  });
});

describe("partner plans", () => {
  it("lists the active plans under /api/v1 and the unversioned prefix alike", async () => {
    const current = await server.api.get("/api/v1/integrations/partner/plans", org.partner.headers);
    const legacy = await server.api.get("/api/integrations/partner/plans", org.partner.headers);
    expect(current.status).toBe(200);
    expect(legacy.body).toEqual(current.body);
    expect(current.body.data).toHaveLength(SYSTEM_PLANS.length);
  });

  it("leaves out plans that are not active", async () => {
    const retired = await testDb.db.plan.create({
      data: { planType: `retired-${Date.now()}`, displayName: "Retired", status: "retired", sortOrder: 99 },
    });
    try {
      const partnerPlans = await server.api.get("/api/v1/integrations/partner/plans", org.partner.headers);
      expect(partnerPlans.body.data.map((plan: { id: string }) => plan.id)).not.toContain(retired.id);
      const distributorPlans = await server.api.get("/api/v1/distributors/plans", org.distributor.headers);
      expect(distributorPlans.body.data.map((plan: { id: string }) => plan.id)).toContain(retired.id);
    } finally {
      await testDb.db.plan.delete({ where: { id: retired.id } });
    }
  });
});
