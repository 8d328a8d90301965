/**
 * `npm run db:migrate`: applies pending migrations (Prisma's schema engine, WebAssembly build)
 * and the system rows to the database of the environment. With --demo (used by `npm start`), an
 * empty database also gets the demo organization, whose keys are printed, when SEED_DEMO allows
 * (by default: on the embedded database only, never on a PostgreSQL one).
 */
import "./lib/load-env";
import { config } from "../server/config";
import { openDatabase } from "../server/db/client";
import { prepareDatabase } from "../server/startup/database";
import { describeDemoCredentials, seedDemoIfEmpty } from "../server/startup/demo";

async function main() {
  const database = await openDatabase();
  try {
    const applied = await prepareDatabase(database);
    if (applied.length > 0) console.log(`Applied ${applied.length} migration(s) to ${database.location}: ${applied.join(", ")}`);
    if (process.argv.includes("--demo") && config.seedDemo()) {
      const demo = await seedDemoIfEmpty(database.prisma);
      if (demo) console.log(describeDemoCredentials(demo, config.appUrl()));
    }
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(`Database preparation failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
