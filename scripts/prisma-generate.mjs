// `npm run db:generate` (and npm ci's postinstall, with --if-installed: a production install has no
// Prisma CLI, and needs none, the client being compiled into the build). Plain JavaScript, so it runs
// in any shell npm uses (sh, cmd.exe). The Prisma CLI only checks that a schema engine binary exists
// before generating; pointing it at this Node keeps it from downloading one (migrations use the
// schema engine's WebAssembly build, server/db/migrations.ts).
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";

let cli;
try {
  cli = createRequire(import.meta.url).resolve("prisma/build/index.js");
} catch {
  if (process.argv.includes("--if-installed")) process.exit(0);
  console.error("The Prisma CLI is not installed (a dev dependency): run `npm ci` first.");
  process.exit(1);
}
const generate = spawnSync(process.execPath, [cli, "generate", ...process.argv.slice(2).filter((arg) => arg !== "--if-installed")], {
  stdio: "inherit",
  env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath },
});
process.exit(generate.status ?? 1);
