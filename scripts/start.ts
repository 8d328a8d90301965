/**
 * `npm start` (production, compiled to dist/start.js) and `npm run dev` (development, --dev, run by tsx).
 * The build is made before this runs (npm start's prestart: scripts/build.ts --if-stale). Then:
 * 1. prepares the database in a child process: pending migrations, system rows, and on an empty
 *    embedded database the demo organization (scripts/db-migrate.ts), so the schema engine never
 *    loads in the server;
 * 2. production: becomes the server itself, Next.js with the REST API served directly
 *    (dist/serve.js, loaded into this process), so `npm start` ends in one Node process;
 *    development: runs Next.js's development server through scripts/serve.ts --dev (tsx) in a
 *    child process on PORT, passing signals through.
 */
import "./lib/require-node";
import "./lib/load-env";
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { appSecret } from "../server/app-key";
import { checkConfig, config } from "../server/config";
import { holdTickObjectShape } from "./lib/tick-object-shape";

const dev = process.argv.includes("--dev");

/**
 * The V8 heap sizing of the production server (docs/operations.md, "Processes and memory").
 * Node 24 sizes the young generation by the machine's memory (128 MiB on a 24 GiB host; Node 20:
 * 32 MiB), and the old generation's first full collection by its limit (a quarter of the memory, up
 * to 4 GiB), so under load it filled with the garbage of answered requests for hundreds of MiB.
 * A flag the operator passes (command line or NODE_OPTIONS) wins over the one here.
 */
const SERVER_V8_FLAGS = ["--max-semi-space-size=16", "--max-old-space-size=1536"];

// V8 reads its heap flags when the process starts: the process replaces itself (same pid, same
// stdio) with one started with them, where process.execve exists (not on Windows).
if (!dev && typeof process.execve === "function") {
  const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? "").split(/\s+/)].map((flag) => flag.split("=")[0]);
  const missing = SERVER_V8_FLAGS.filter((flag) => !given.includes(flag.split("=")[0]));
  if (missing.length > 0)
    process.execve(process.execPath, [process.execPath, ...missing, ...process.execArgv, ...process.argv.slice(1)], process.env);
}
// Before the first full collection: production's server is this process (scripts/serve.ts holds it too, for --dev).
if (!dev) holdTickObjectShape();

const root = process.cwd();
const require = createRequire(import.meta.url);
const compiled = (file: string) => path.join(root, "dist", file);

// next dev and next start each need their own PGlite directory (one process per directory).
if (dev && !process.env.DATA_DIR) process.env.DATA_DIR = ".data-dev";
process.env.PORT ??= "3000";
process.env.APP_URL ??= `http://localhost:${process.env.PORT}`;
process.env.NEXTAUTH_URL ??= process.env.APP_URL;
// Set before Next.js and React load: they pick their production builds by it.
if (!dev) Object.assign(process.env, { NODE_ENV: process.env.NODE_ENV ?? "production" });

// The key that encrypts webhook signing secrets: required with DATABASE_URL, generated into DATA_DIR otherwise.
try {
  checkConfig();
  appSecret();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}

// Inngest is imported only in Inngest mode, and a production install may leave it out (docs/operations.md).
if (config.inngestEnabled()) {
  try {
    require.resolve("inngest");
  } catch {
    console.error(
      "Inngest mode is on (INNGEST_EVENT_KEY, INNGEST_SIGNING_KEY or INNGEST_DEV) but the inngest package is not installed (npm run prune:production -- inngest removed it).",
    );
    process.exit(1);
  }
}

if (!dev && !existsSync(compiled("BUILD"))) {
  console.error("No build in dist/: run `npm run build` first (`npm start` does it by itself).");
  process.exit(1);
}

const migrate = dev
  ? [require.resolve("tsx/cli"), path.join(root, "scripts", "db-migrate.ts"), "--demo"]
  : [compiled("db-migrate.js"), "--demo"];
const migration = spawnSync(process.execPath, migrate, { stdio: "inherit", env: process.env });
if (migration.status !== 0) {
  console.error(`Database preparation failed (exit code ${migration.status ?? migration.signal}).`);
  process.exit(migration.status ?? 1);
}

if (dev) {
  // Not `next dev`: scripts/serve.ts gives route handlers the client's address (server/client-address.ts).
  const serve = [require.resolve("tsx/cli"), path.join(root, "scripts", "serve.ts"), "--dev"];
  const server = spawn(process.execPath, serve, { stdio: "inherit", env: { ...process.env, NODE_ENV: "development" } });
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => server.kill(signal));
  server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
} else {
  await import(pathToFileURL(compiled("serve.js")).href);
}
