import { spawn } from "node:child_process";
import { createWriteStream, mkdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const ARTIFACTS = path.resolve("e2e/artifacts");
export const SERVER_LOG = path.join(ARTIFACTS, "server.log");
export const SERVER_PID = path.join(ARTIFACTS, "server.pid");

/**
 * Starts the service as `npm start` does (scripts/start.ts: build if stale, migrate, demo data,
 * next start) on a fresh embedded database, waits until it is healthy, and hands the demo
 * credentials it printed to the tests through the environment.
 */
export default async function globalSetup() {
  const port = Number(process.env.E2E_PORT ?? 3210);
  const dataDir = path.join(ARTIFACTS, "data");
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(ARTIFACTS, { recursive: true });
  const log = createWriteStream(SERVER_LOG);
  const tsxCli = createRequire(import.meta.url).resolve("tsx/cli");
  const server = spawn(process.execPath, [tsxCli, "scripts/start.ts"], {
    env: {
      ...process.env,
      DATABASE_URL: "",
      DATA_DIR: dataDir,
      PORT: String(port),
      APP_URL: `http://127.0.0.1:${port}`,
      WEBHOOK_ALLOW_PRIVATE_URLS: "true",
      WEBHOOK_RETRY_BASE_MS: "200",
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  server.stdout.pipe(log);
  server.stderr.pipe(log);
  (await import("node:fs")).writeFileSync(SERVER_PID, String(server.pid));

  const deadline = Date.now() + 240_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server exited early; see ${SERVER_LOG}`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/v1/health`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const output = readFileSync(SERVER_LOG, "utf8");
  const value = (label: string) => new RegExp(`${label}:\\s+(\\S+)`).exec(output)?.[1];
  const demo = {
    distributorId: value("SW-DISTRIBUTOR-ID"),
    distributorKey: /SW-DISTRIBUTOR-ID:\s+\S+\s+SW-API-KEY:\s+(\S+)/.exec(output)?.[1],
    partnerId: value("SW-PARTNER-ID"),
    partnerKey: /SW-PARTNER-ID:\s+\S+\s+SW-API-KEY:\s+(\S+)/.exec(output)?.[1],
  };
  if (Object.values(demo).some((v) => !v)) throw new Error(`no demo credentials in the start output; see ${SERVER_LOG}`);
  process.env.E2E_DEMO = JSON.stringify(demo);
}
