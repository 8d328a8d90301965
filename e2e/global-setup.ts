import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createDatabase } from "../scripts/lib/scratch-database";
import { startServiceProcess } from "../scripts/lib/service-process";

const ARTIFACTS = path.resolve("e2e/artifacts");
export const SERVER_PID = path.join(ARTIFACTS, "server.pid");
export const E2E_DATABASE = path.join(ARTIFACTS, "database.json");
/** The server's METRICS_TOKEN (GET /api/metrics, docs/operations.md). */
export const E2E_METRICS_TOKEN = "e2e-metrics-token-0123456789abcdef";

/**
 * Starts the service as `npm start` does, for every e2e suite: on a fresh PostgreSQL database
 * when TEST_DATABASE_URL is set (CI; the admin CLI then works beside the server), else on a fresh
 * embedded database. Either way the demo organization is created and its keys handed to the tests.
 */
export default async function globalSetup() {
  mkdirSync(ARTIFACTS, { recursive: true });
  const adminUrl = process.env.TEST_DATABASE_URL?.trim();
  let databaseUrl: string | undefined;
  if (adminUrl) {
    const name = `e2e_${Date.now().toString(36)}`;
    databaseUrl = await createDatabase(adminUrl, name);
    writeFileSync(E2E_DATABASE, JSON.stringify({ adminUrl, name }));
  }
  const dataDir = path.join(ARTIFACTS, "data");
  const service = await startServiceProcess({
    port: Number(process.env.E2E_PORT ?? 3210),
    dataDir,
    databaseUrl,
    logFile: path.join(ARTIFACTS, "server.log"),
    env: { WEBHOOK_ALLOW_PRIVATE_URLS: "true", WEBHOOK_RETRY_BASE_MS: "200", METRICS_TOKEN: E2E_METRICS_TOKEN },
  });
  writeFileSync(SERVER_PID, String(service.pid));
  process.env.E2E_DEMO = JSON.stringify(service.demo);
  process.env.E2E_DATA_DIR = dataDir;
  if (databaseUrl) process.env.E2E_DATABASE_URL = databaseUrl;
}
