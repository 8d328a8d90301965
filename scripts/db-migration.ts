/**
 * `npm run db:migration -- <name>`: writes the next migration, the SQL that takes the database
 * from what prisma/migrations/ produce to prisma/schema.prisma, as computed by Prisma's schema
 * engine (WebAssembly build). Prints nothing new and writes nothing when they already agree.
 */
import "./lib/load-env";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { diffMigrationsAgainstSchema, MIGRATIONS_DIR } from "../server/db/migrations";

async function main() {
  const name = process.argv
    .slice(2)
    .join("_")
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, "_");
  if (!name) {
    console.error("usage: npm run db:migration -- <name>");
    process.exit(2);
  }
  const { exitCode, sql } = await diffMigrationsAgainstSchema();
  if (exitCode === 0) {
    console.log("The migrations already produce prisma/schema.prisma; no migration written.");
    return;
  }
  const stamp = new Date().toISOString().replace(/[-:T]/g, "").slice(0, 14);
  const dir = path.join(MIGRATIONS_DIR, `${stamp}_${name}`);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, "migration.sql"), sql);
  console.log(`Wrote ${path.relative(process.cwd(), dir)}/migration.sql`);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
