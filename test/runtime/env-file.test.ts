import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, dropDatabase, withAdminClient } from "../../scripts/lib/scratch-database";

const run = promisify(execFile);
const tsxCli = createRequire(import.meta.url).resolve("tsx/cli");
const root = path.join(import.meta.dirname, "../..");
const postgresAdminUrl = process.env.TEST_DATABASE_URL?.trim();

/**
 * One .env loader for every entry point (scripts/lib/load-env.ts, Next.js's @next/env): a project
 * directory configured only by its .env file. The migrations, the admin CLI and the server's start
 * script must use the database it names (with DATABASE_URL, the issue was migrations on the
 * embedded database and the server on PostgreSQL). The built server on such a directory: CI's
 * e2e/production-install.ts.
 */
describe("a .env file", { timeout: 180_000 }, () => {
  let project: string;
  let databaseName: string | undefined;
  // The processes get no database settings from the test's own environment.
  const env = { ...process.env };
  for (const name of ["DATABASE_URL", "DATA_DIR", "APP_SECRET", "SEED_DEMO", "NODE_ENV"]) delete env[name];
  const script = (file: string, ...argv: string[]) =>
    run(process.execPath, [tsxCli, path.join(root, "scripts", file), ...argv], { cwd: project, env });

  beforeAll(async () => {
    project = await mkdtemp(path.join(os.tmpdir(), "env-file-"));
    for (const shared of ["prisma", "data"]) await symlink(path.join(root, shared), path.join(project, shared));
    const lines = ["SEED_DEMO=false", "LOG_LEVEL=warn"];
    if (postgresAdminUrl) {
      databaseName = `env_file_${Date.now().toString(36)}`;
      lines.push(
        `DATABASE_URL=${await createDatabase(postgresAdminUrl, databaseName)}`,
        "APP_SECRET=env-file-test-0123456789abcdef0123456789ab",
      );
    } else {
      lines.push(`DATA_DIR=${path.join(project, "from-env-file")}`);
    }
    await writeFile(path.join(project, ".env"), lines.join("\n") + "\n");
  });
  afterAll(async () => {
    if (postgresAdminUrl && databaseName) await dropDatabase(postgresAdminUrl, databaseName);
    await rm(project, { recursive: true, force: true });
  });

  it("configures the migrations, the admin CLI and the server's start alike", async () => {
    await script("db-migrate.ts");
    if (postgresAdminUrl) {
      const migrated = await withAdminClient(postgresAdminUrl.replace(/\/[^/]*$/, `/${databaseName}`), (client) =>
        client.query("SELECT count(*)::int AS applied FROM _prisma_migrations"),
      );
      expect(migrated.rows[0].applied).toBeGreaterThan(0);
    } else {
      expect(existsSync(path.join(project, "from-env-file", "pglite", "PG_VERSION"))).toBe(true);
    }

    // The CLI finds the distributor it created in an earlier run: the same database.
    const distributor = JSON.parse((await script("admin.ts", "create-distributor", "--name", "Env Co")).stdout) as { id: string };
    const partner = JSON.parse((await script("admin.ts", "create-partner", "--distributor", distributor.id, "--name", "P")).stdout) as {
      id: string;
    };
    expect(partner.id).toMatch(/^[0-9a-f-]{36}$/);

    // The start script reads the same file: it checks the configuration (and on the embedded
    // database keeps the app secret in its DATA_DIR) before it finds no build in this directory.
    const start = await script("start.ts").then(
      () => ({ code: 0, stderr: "" }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(start.stderr).toContain("No build in dist/");
    if (!postgresAdminUrl) expect(existsSync(path.join(project, "from-env-file", "app-secret"))).toBe(true);

    expect(existsSync(path.join(project, ".data"))).toBe(false);
  });
});
