/**
 * `npm run build`, and `npm start`'s prestart step with --if-stale (build only when there is no
 * build yet or a source changed since the last one). Two parts, both done at build time so the
 * production process compiles nothing:
 * 1. the Next.js production build (.next/);
 * 2. the server's own scripts compiled by esbuild into dist/: start.js (npm start), serve.js (the
 *    HTTP server, loaded by start.js in the same process) and db-migrate.js (run by start.js in a
 *    child process before it). Packages stay in node_modules, loaded by Node (`packages: "external"`).
 * dist/BUILD is written last: a build that stopped half-way counts as stale.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { build } from "esbuild";

const root = process.cwd();
const DIST = path.join(root, "dist");
const BUILD_MARKER = path.join(DIST, "BUILD");
const SOURCES = [
  "app",
  "server",
  "inngest",
  "public",
  "scripts",
  "instrumentation.ts",
  "next.config.js",
  "package-lock.json",
  "prisma/schema.prisma",
  "tsconfig.json",
  "tsconfig.build.json",
];
const SERVER_ENTRY_POINTS = {
  start: "scripts/start.ts",
  serve: "scripts/serve.ts",
  "db-migrate": "scripts/db-migrate.ts",
  admin: "scripts/admin.ts",
};

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
  if (!existsSync(BUILD_MARKER) || !existsSync(path.join(root, ".next", "BUILD_ID"))) return true;
  const builtAt = statSync(BUILD_MARKER).mtimeMs;
  return SOURCES.some((entry) => newestSourceTime(entry) > builtAt);
}

async function main() {
  if (process.argv.includes("--if-stale")) {
    if (!buildIsStale()) return;
    console.log("Building the app (no build yet, or the sources changed since the last one)...");
  }
  rmSync(BUILD_MARKER, { force: true });
  const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");
  // Next.js's anonymous telemetry stays off unless the environment turns it on.
  const env = { ...process.env, NEXT_TELEMETRY_DISABLED: process.env.NEXT_TELEMETRY_DISABLED ?? "1" };
  const nextBuild = spawnSync(process.execPath, [nextBin, "build"], { stdio: "inherit", env });
  if (nextBuild.status !== 0) {
    console.error(`next build failed (exit code ${nextBuild.status ?? nextBuild.signal}).`);
    process.exit(nextBuild.status ?? 1);
  }
  rmSync(DIST, { recursive: true, force: true });
  mkdirSync(DIST, { recursive: true });
  await build({
    entryPoints: SERVER_ENTRY_POINTS,
    outdir: DIST,
    bundle: true,
    packages: "external",
    platform: "node",
    format: "esm",
    target: "node22.19",
    logLevel: "warning",
  });
  writeFileSync(BUILD_MARKER, `${new Date().toISOString()}\n`);
}

main().catch((error: unknown) => {
  console.error(`Build failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
