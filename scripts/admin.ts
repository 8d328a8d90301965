/**
 * The admin CLI: `npm run --silent admin -- <command> [options]` (README.md, CONTRACT.md).
 * One JSON object on stdout; errors on stderr with exit code 1 (2 for a wrong command line).
 */
import "./lib/load-env";
import { adminUsage, parseAdminCommand, UsageError } from "../server/cli/admin";
import { openDatabase } from "../server/db/client";
import { EmbeddedDatabaseInUseError } from "../server/db/embedded-lock";
import { readServiceAccess } from "../server/service-access";
import { prepareDatabase } from "../server/startup/database";
import { AppError } from "../server/errors";

async function main(argv: string[]): Promise<number> {
  if (argv.length === 0 || argv.includes("--help") || argv.includes("-h") || argv[0] === "help") {
    process.stdout.write(adminUsage() + "\n");
    return argv.length === 0 ? 2 : 0;
  }
  const { command, values } = parseAdminCommand(argv);
  let database;
  try {
    database = await openDatabase();
  } catch (error) {
    if (!(error instanceof EmbeddedDatabaseInUseError) || !command.throughService) throw error;
    const access = readServiceAccess(error.dataDir);
    if (!access) throw error;
    process.stdout.write(JSON.stringify(await command.throughService(access, values)) + "\n");
    return 0;
  }
  try {
    await prepareDatabase(database);
    const result = await command.run(database.prisma, values);
    process.stdout.write(JSON.stringify(result) + "\n");
    return 0;
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError) {
      process.stderr.write(`admin: ${error.message}\nRun with --help for the commands.\n`);
      process.exit(2);
    }
    const message = error instanceof AppError || error instanceof Error ? error.message : String(error);
    process.stderr.write(`admin: ${message}\n`);
    process.exit(1);
  },
);
