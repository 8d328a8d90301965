/**
 * The fresh-machine path in CI: the service started as `npm start` does on a new embedded
 * database prints demo keys that work. (The Playwright suites run on PostgreSQL in CI so the
 * admin CLI can run beside the server; this covers the embedded default.)
 */
import path from "node:path";
import { startServiceProcess } from "../scripts/lib/service-process";

const service = await startServiceProcess({
  port: Number(process.env.SMOKE_PORT ?? 3220),
  dataDir: path.resolve("e2e/artifacts/smoke-data"),
  logFile: path.resolve("e2e/artifacts/smoke-server.log"),
});
try {
  const response = await fetch(`${service.baseUrl}/api/v1/integrations/partner/plans`, {
    headers: { "SW-PARTNER-ID": service.demo.partnerId, "SW-API-KEY": service.demo.partnerKey },
  });
  const body = (await response.json()) as { success?: boolean; data?: unknown[] };
  if (response.status !== 200 || body.success !== true || !body.data?.length) {
    throw new Error(`the demo partner key did not work: ${response.status} ${JSON.stringify(body)}`);
  }
  console.log("embedded start: healthy, demo keys work");
} finally {
  service.stop();
}
