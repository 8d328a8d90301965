/**
 * `npm start` (production) and `npm run dev` (development, --dev).
 * 1. builds the app when there is no build or the sources are newer than it (not in dev);
 * 2. prepares the database in a child process: pending migrations, system rows, and on an empty
 *    embedded database the demo organization (scripts/db-migrate.ts);
 * 3. runs the production server, Next.js with the REST API served directly (scripts/serve.ts), or
 *    `next dev`, on PORT, passing signals through.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { appSecret } from "../server/app-key";
import { checkConfig } from "../server/config";

const dev = process.argv.includes("--dev");
const root = process.cwd();
const require = createRequire(import.meta.url);
const nextBin = require.resolve("next/dist/bin/next");
const tsxCli = require.resolve("tsx/cli");

// next dev and next start each need their own PGlite directory (one process per directory).
if (dev && !process.env.DATA_DIR) process.env.DATA_DIR = ".data-dev";
process.env.PORT ??= "3000";
process.env.APP_URL ??= `http://localhost:${process.env.PORT}`;
process.env.NEXTAUTH_URL ??= process.env.APP_URL;

// The key that encrypts webhook signing secrets: required with DATABASE_URL, generated into DATA_DIR otherwise.
try {
  checkConfig();
  appSecret();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}

function runOrExit(args: string[], label: string) {
  const result = spawnSync(process.execPath, args, { stdio: "inherit", env: process.env });
  if (result.status !== 0) {
    console.error(`${label} failed (exit code ${result.status ?? result.signal}).`);
    process.exit(result.status ?? 1);
  }
}

const SOURCES = ["app", "server", "inngest", "public", "instrumentation.ts", "next.config.js", "package-lock.json", "prisma/schema.prisma"];

function newestSourceTime(entry: string): number {
  const full = path.join(root, entry);
  if (!existsSync(full)) return 0;
  const stats = statSync(full);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const child of readdirSync(full)) newest = Math.max(newest, newestSourceTime(path.join(entry, child)));
  return newest;
}

function buildIsStale(): boolean {
  const buildId = path.join(root, ".next", "BUILD_ID");
  if (!existsSync(buildId)) return true;
  const builtAt = statSync(buildId).mtimeMs;
  return SOURCES.some((entry) => newestSourceTime(entry) > builtAt);
}

if (!dev && buildIsStale()) {
  console.log("Building the app (no build yet, or the sources changed since the last one)...");
  runOrExit([nextBin, "build"], "next build");
}

runOrExit([tsxCli, path.join(root, "scripts", "db-migrate.ts"), "--demo"], "Database preparation");

const server = dev
  ? spawn(process.execPath, [nextBin, "dev", "--port", process.env.PORT], { stdio: "inherit", env: process.env })
  : spawn(process.execPath, ["--import", "tsx", path.join(root, "scripts", "serve.ts")], {
      stdio: "inherit",
      env: { ...process.env, NODE_ENV: process.env.NODE_ENV ?? "production" },
    });
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
