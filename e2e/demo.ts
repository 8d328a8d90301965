import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { promisify } from "node:util";
import { test } from "@playwright/test";
import { serviceEnvironment, type DemoCredentials } from "../scripts/lib/service-process";

/** The demo organization `npm start` created and printed (read by e2e/global-setup.ts). */
export function demo(): DemoCredentials {
  const raw = process.env.E2E_DEMO;
  if (!raw) throw new Error("E2E_DEMO is not set: e2e/global-setup.ts did not run");
  return JSON.parse(raw) as DemoCredentials;
}

export const partnerHeaders = () => ({ "SW-PARTNER-ID": demo().partnerId, "SW-API-KEY": demo().partnerKey });
export const distributorHeaders = () => ({ "SW-DISTRIBUTOR-ID": demo().distributorId, "SW-API-KEY": demo().distributorKey });

const run = promisify(execFile);
const tsxCli = createRequire(import.meta.url).resolve("tsx/cli");

/**
 * Runs an admin CLI command against the e2e server's database and returns its JSON output.
 * Only on PostgreSQL (TEST_DATABASE_URL set): the embedded database belongs to the server alone,
 * so tests that need the CLI are skipped there.
 */
export async function admin(...argv: string[]): Promise<Record<string, unknown>> {
  const databaseUrl = process.env.E2E_DATABASE_URL;
  if (!databaseUrl) throw new Error("admin() needs the e2e server on PostgreSQL (set TEST_DATABASE_URL)");
  const { stdout } = await run(process.execPath, [tsxCli, "scripts/admin.ts", ...argv], {
    env: serviceEnvironment({ dataDir: process.env.E2E_DATA_DIR!, databaseUrl }),
  });
  return JSON.parse(stdout) as Record<string, unknown>;
}

/** Skips the current test unless the admin CLI can run beside the server (see admin()). */
export function requireAdminCli() {
  test.skip(!process.env.E2E_DATABASE_URL, "needs TEST_DATABASE_URL: the admin CLI cannot share the embedded database");
}
