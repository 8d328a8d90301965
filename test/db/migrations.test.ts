import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../server/db/client";
import { pendingMigrationNames } from "../../server/db/migration-status";
import {
  applyPendingMigrations,
  diffMigrationsAgainstSchema,
  migrateDatabase,
  MIGRATIONS_DIR,
  SCHEMA_PATH,
} from "../../server/db/migrations";
import { prepareDatabase } from "../../server/startup/database";
import { CUSTOMER_FIGURES_MIGRATION } from "../../server/customers/figures";
import { emailSha1Prefix, INDEX_RANGE_PREFIXES_JOB, RANGE_PREFIX_MIGRATION } from "../../server/breaches/exposure-index/range-prefixes";
import { runDueJobs } from "../../server/jobs/worker";
import { jobCatalogue } from "../../server/startup/job-catalogue";
import { createDatabase, dropDatabase } from "../../scripts/lib/scratch-database";

const tempDirs: string[] = [];
afterAll(async () => {
  for (const dir of tempDirs) await rm(dir, { recursive: true, force: true });
});

describe("migrations match the schema", { timeout: 180_000 }, () => {
  it("prisma/migrations produce exactly prisma/schema.prisma (the engine's diff, exit code 0)", async () => {
    const { exitCode, sql } = await diffMigrationsAgainstSchema();
    expect(sql).not.toMatch(/CREATE|ALTER|DROP/);
    expect(exitCode).toBe(0);
  });

  it("reports drift (exit code 2 and the SQL to close it) when the schema gains a model the migrations lack", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "drift-"));
    tempDirs.push(dir);
    const schemaPath = path.join(dir, "schema.prisma");
    const schema = await readFile(SCHEMA_PATH, "utf8");
    await writeFile(schemaPath, `${schema}\nmodel DriftProbe {\n  id Int @id\n  @@map("drift_probe")\n}\n`);
    const { exitCode, sql } = await diffMigrationsAgainstSchema(MIGRATIONS_DIR, schemaPath);
    expect(exitCode).toBe(2);
    expect(sql).toContain('CREATE TABLE "drift_probe"');
  });

  it("reports drift when a migration is missing", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "drift-"));
    tempDirs.push(dir);
    await cp(MIGRATIONS_DIR, dir, { recursive: true });
    const names = await pendingMigrationNamesOfEmptyDb(dir);
    await rm(path.join(dir, names[names.length - 1]!), { recursive: true });
    const { exitCode } = await diffMigrationsAgainstSchema(dir);
    expect(exitCode).toBe(2);
  });
});

describe("applying migrations", { timeout: 180_000 }, () => {
  it("applies every migration to an empty embedded database once; a second run applies nothing", async () => {
    const database = await openDatabase({ pglite: new PGlite() });
    try {
      const all = await database.withMigrationAccess((session) => pendingMigrationNames(session));
      expect(all.length).toBeGreaterThan(0);
      expect(await migrateDatabase(database)).toEqual(all);
      expect(await migrateDatabase(database)).toEqual([]);
      expect(await database.withMigrationAccess((session) => pendingMigrationNames(session))).toEqual([]);
      expect(await database.prisma.customer.count()).toBe(0);
    } finally {
      await database.close();
    }
  });

  it.runIf(Boolean(process.env.TEST_DATABASE_URL))(
    "lets only one of two processes starting at once apply them on PostgreSQL (advisory lock)",
    async () => {
      const adminUrl = process.env.TEST_DATABASE_URL!;
      const name = `emtest_migrate_${Date.now().toString(36)}`;
      const url = await createDatabase(adminUrl, name);
      const databases = await Promise.all([openDatabase({ url }), openDatabase({ url })]);
      try {
        const results = await Promise.all(databases.map((database) => migrateDatabase(database)));
        const all = await pendingMigrationNamesOfEmptyDb(MIGRATIONS_DIR);
        expect(results.flat().sort()).toEqual(all);
        expect(results.filter((applied) => applied.length > 0)).toHaveLength(1);
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        const { rows } = await client.query("SELECT count(*)::int AS n FROM _prisma_migrations");
        await client.end();
        expect(rows[0].n).toBe(all.length);
      } finally {
        for (const database of databases) await database.close();
        await dropDatabase(adminUrl, name);
      }
    },
  );
});

describe("preparing a database", { timeout: 180_000 }, () => {
  it.runIf(Boolean(process.env.TEST_DATABASE_URL))(
    "lets two processes starting at once on a new PostgreSQL database both finish, with the system rows once",
    async () => {
      const adminUrl = process.env.TEST_DATABASE_URL!;
      const name = `emtest_prepare_${Date.now().toString(36)}`;
      const url = await createDatabase(adminUrl, name);
      const databases = await Promise.all([openDatabase({ url }), openDatabase({ url })]);
      try {
        await Promise.all(databases.map((database) => prepareDatabase(database)));
        const plans = await databases[0]!.prisma.plan.findMany({ select: { planType: true }, orderBy: { planType: "asc" } });
        expect(plans.map((plan) => plan.planType)).toEqual(["basic", "plus", "pro"]);
      } finally {
        for (const database of databases) await database.close();
        await dropDatabase(adminUrl, name);
      }
    },
  );
});

describe("upgrading a database with data", { timeout: 180_000 }, () => {
  it("the start that adds the customers' stored figures counts them for the customers already there", async () => {
    const earlier = await mkdtemp(path.join(os.tmpdir(), "upgrade-"));
    tempDirs.push(earlier);
    await cp(MIGRATIONS_DIR, earlier, { recursive: true });
    await rm(path.join(earlier, CUSTOMER_FIGURES_MIGRATION), { recursive: true });
    const database = await openDatabase({ pglite: new PGlite() });
    try {
      await database.withMigrationAccess((session, adapterFactory) => applyPendingMigrations(session, adapterFactory, earlier));
      // written with SQL: the client of this build knows columns the earlier schema lacks
      const [customer] = await database.prisma.$queryRaw<Array<{ id: string }>>`
        WITH distributor AS (INSERT INTO distributors (name, updated_at) VALUES ('Upgrade', now()) RETURNING id),
             partner AS (INSERT INTO partners (distributor_id, name, updated_at) SELECT id, 'Upgrade partner', now() FROM distributor RETURNING id),
             plan AS (INSERT INTO plans (plan_type, display_name) VALUES ('upgrade', 'Upgrade plan') RETURNING id)
        INSERT INTO customers (partner_id, reference, company_name, contact_email, currency_code, plan_id, status, updated_at)
        SELECT partner.id, 'U-1', 'Upgrade Ltd', 'it@upgrade.example', 'GBP', plan.id, 'active', now() FROM partner, plan
        RETURNING id::text`;
      await database.prisma.$executeRaw`
        INSERT INTO monitored_assets (customer_id, kind, value, domain) VALUES
          (${customer!.id}::uuid, 'domain', 'upgrade.example', 'upgrade.example'),
          (${customer!.id}::uuid, 'email', 'a@upgrade.example', 'upgrade.example'),
          (${customer!.id}::uuid, 'email', 'b@upgrade.example', 'upgrade.example')`;

      expect(await prepareDatabase(database)).toContain(CUSTOMER_FIGURES_MIGRATION);
      expect(
        await database.prisma.customer.findUniqueOrThrow({
          where: { id: customer!.id },
          select: { monitoredDomainCount: true, monitoredEmailCount: true, breachCount: true },
        }),
      ).toEqual({ monitoredDomainCount: 1, monitoredEmailCount: 2, breachCount: 0 });
    } finally {
      await database.close();
    }
  });
  it("the start that adds breach/range's hash prefixes queues their fill for the rows already there", async () => {
    const earlier = await mkdtemp(path.join(os.tmpdir(), "upgrade-"));
    tempDirs.push(earlier);
    await cp(MIGRATIONS_DIR, earlier, { recursive: true });
    await rm(path.join(earlier, RANGE_PREFIX_MIGRATION), { recursive: true });
    const database = await openDatabase({ pglite: new PGlite() });
    try {
      await database.withMigrationAccess((session, adapterFactory) => applyPendingMigrations(session, adapterFactory, earlier));
      const emails = ["a@upgrade.example", "b@upgrade.example", "c@other.example"];
      await database.prisma.$executeRaw`
        INSERT INTO breach_exposures (domain, email, breach_id)
        SELECT split_part(email, '@', 2), email, gen_random_uuid() FROM unnest(${emails}::text[]) AS email`;

      expect(await prepareDatabase(database)).toContain(RANGE_PREFIX_MIGRATION);
      expect(await database.prisma.job.count({ where: { kind: INDEX_RANGE_PREFIXES_JOB, status: "pending" } })).toBe(1);
      await runDueJobs(database.prisma, jobCatalogue, { kinds: [INDEX_RANGE_PREFIXES_JOB] });
      const rows = await database.prisma.breachExposure.findMany({
        select: { email: true, emailSha1Prefix: true },
        orderBy: { email: "asc" },
      });
      expect(rows).toEqual(emails.map((email) => ({ email, emailSha1Prefix: emailSha1Prefix(email) })));
      expect(await database.prisma.job.count({ where: { kind: INDEX_RANGE_PREFIXES_JOB, status: "succeeded" } })).toBe(1);
    } finally {
      await database.close();
    }
  });
});

async function pendingMigrationNamesOfEmptyDb(migrationsDir: string): Promise<string[]> {
  const pglite = new PGlite();
  try {
    return await pendingMigrationNames({ query: async (sql) => (await pglite.query<never>(sql)).rows }, migrationsDir);
  } finally {
    await pglite.close();
  }
}
