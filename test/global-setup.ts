import { randomBytes } from "node:crypto";
import { rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import type { TestProject } from "vitest/node";
import { openDatabase } from "../server/db/client";
import { prepareDatabase } from "../server/startup/database";
import { createDatabase, dropDatabase, withAdminClient } from "../scripts/lib/scratch-database";

declare module "vitest" {
  export interface ProvidedContext {
    /** PostgreSQL: the migrated template database every test file clones. */
    pgTemplate: { adminUrl: string; name: string; runPrefix: string } | null;
    /** PGlite: a dump of a migrated data directory every test file loads. */
    pgliteDump: string | null;
  }
}

/**
 * Migrates one database per run with the real migrations (Prisma's schema engine), then lets
 * each test file start from a copy: on PostgreSQL when TEST_DATABASE_URL is set (databases
 * created here and dropped after), else on the embedded PGlite.
 */
export default async function setup(project: TestProject) {
  const adminUrl = process.env.TEST_DATABASE_URL?.trim();
  if (adminUrl) {
    const runPrefix = `emtest_${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
    const name = `${runPrefix}_template`;
    const database = await openDatabase({ url: await createDatabase(adminUrl, name) });
    await prepareDatabase(database);
    await database.close();
    project.provide("pgTemplate", { adminUrl, name, runPrefix });
    project.provide("pgliteDump", null);
    return async () => {
      const { rows } = await withAdminClient(adminUrl, (client) =>
        client.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE $1`, [`${runPrefix}%`]),
      );
      for (const row of rows) await dropDatabase(adminUrl, row.datname);
    };
  }
  const pglite = new PGlite();
  const database = await openDatabase({ pglite });
  await prepareDatabase(database);
  const dump = await pglite.dumpDataDir("none");
  await database.close();
  const dumpPath = path.join(os.tmpdir(), `emtest-${process.pid}-${Date.now()}.tar`);
  await writeFile(dumpPath, Buffer.from(await dump.arrayBuffer()));
  project.provide("pgTemplate", null);
  project.provide("pgliteDump", dumpPath);
  return async () => {
    await rm(dumpPath, { force: true });
  };
}
