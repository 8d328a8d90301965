import { writeFileSync } from "node:fs";
import path from "node:path";
import { startServiceProcess } from "../scripts/lib/service-process";

const ARTIFACTS = path.resolve("e2e/artifacts");
export const SERVER_PID = path.join(ARTIFACTS, "server.pid");

/** Starts the service as `npm start` does, on a fresh embedded database, for every e2e suite. */
export default async function globalSetup() {
  const service = await startServiceProcess({
    port: Number(process.env.E2E_PORT ?? 3210),
    dataDir: path.join(ARTIFACTS, "data"),
    logFile: path.join(ARTIFACTS, "server.log"),
    env: { WEBHOOK_ALLOW_PRIVATE_URLS: "true", WEBHOOK_RETRY_BASE_MS: "200" },
  });
  writeFileSync(SERVER_PID, String(service.pid));
  process.env.E2E_DEMO = JSON.stringify(service.demo);
}
