import path from "node:path";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { createDatabase, dropDatabase } from "../../scripts/lib/scratch-database";
import { startServiceProcess, type DemoCredentials, type ServiceProcess } from "../../scripts/lib/service-process";
import type { ReceivedRequest } from "../../test/helpers/webhook-receiver";

/**
 * Production server processes of their own, on PostgreSQL databases of their own, for the
 * operations suites (shutdown, scale-out): unlike the other e2e suites they start, signal and
 * restart servers, so they never use the shared one of e2e/global-setup.ts.
 */
export function requirePostgres() {
  test.skip(
    !process.env.TEST_DATABASE_URL,
    "needs TEST_DATABASE_URL: these tests run several server processes on one database, which only PostgreSQL allows",
  );
}

export async function scratchDatabase(label: string) {
  const adminUrl = process.env.TEST_DATABASE_URL!;
  const name = `e2e_${label}_${Date.now().toString(36)}`;
  const url = await createDatabase(adminUrl, name);
  return { url, drop: () => dropDatabase(adminUrl, name) };
}

export async function sql<T extends object>(databaseUrl: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

const serviceEnv = { WEBHOOK_ALLOW_PRIVATE_URLS: "true", WEBHOOK_RETRY_BASE_MS: "200", LOG_LEVEL: "info" };

/** The log file of a server started here under `name`. */
export const serverLogFile = (name: string) => serviceFiles(name).logFile;

function serviceFiles(name: string) {
  const artifacts = path.resolve("e2e/artifacts/operations");
  return { dataDir: path.join(artifacts, `${name}-data`), logFile: path.join(artifacts, `${name}.log`) };
}

const running = new Set<ServiceProcess<unknown>>();

function track<T extends ServiceProcess<unknown>>(server: T): T {
  running.add(server);
  void server.exited.then(() => running.delete(server));
  return server;
}

/** A production server (as `npm start` starts it) on an empty database, which it migrates and fills with the demo organization. */
export async function startSeededServer(
  name: string,
  port: number,
  databaseUrl: string,
  env: Record<string, string> = {},
): Promise<ServiceProcess> {
  return track(await startServiceProcess({ port, databaseUrl, env: { ...serviceEnv, ...env }, ...serviceFiles(name) }));
}

/** A production server on a database another server uses or used (migrated there, or by the one starting beside it). */
export async function startServer(name: string, port: number, databaseUrl: string): Promise<ServiceProcess<undefined>> {
  return track(await startServiceProcess({ port, databaseUrl, env: serviceEnv, existingDatabase: true, ...serviceFiles(name) }));
}

/** Stops the servers a test left running (it failed half-way), so none outlives its database or holds its port. */
export async function stopServersLeftRunning(): Promise<void> {
  await Promise.all(
    [...running].map(async (server) => {
      server.stop();
      const killed = setTimeout(() => process.kill(-server.pid, "SIGKILL"), 12_000);
      await server.exited;
      clearTimeout(killed);
    }),
  );
}

/** SIGTERM (or SIGINT) to the server process; resolves with its exit code and how long it took to exit. */
export async function terminate(
  server: ServiceProcess<unknown>,
  signal: "SIGTERM" | "SIGINT" = "SIGTERM",
): Promise<{ code: number | null; ms: number }> {
  const sentAt = Date.now();
  process.kill(server.pid, signal);
  const { code } = await server.exited;
  return { code, ms: Date.now() - sentAt };
}

export const partnerHeaders = (demo: DemoCredentials) => ({ "SW-PARTNER-ID": demo.partnerId, "SW-API-KEY": demo.partnerKey });
export const distributorHeaders = (demo: DemoCredentials) => ({
  "SW-DISTRIBUTOR-ID": demo.distributorId,
  "SW-API-KEY": demo.distributorKey,
});

export async function call(baseUrl: string, method: string, apiPath: string, headers: Record<string, string>, body?: unknown) {
  const response = await fetch(`${baseUrl}${apiPath}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

/** A Standard Webhooks endpoint of the demo partner for customer.created (any 2xx answer counts as delivered). */
export async function createCustomerCreatedEndpoint(baseUrl: string, demo: DemoCredentials, url: string): Promise<string> {
  const created = await call(baseUrl, "POST", "/api/v1/integrations/webhooks", partnerHeaders(demo), {
    url,
    eventTypes: ["customer.created"],
    signatureScheme: "standard-webhooks",
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return created.body.webhook.id as string;
}

export async function onboardCustomer(baseUrl: string, demo: DemoCredentials, reference: string): Promise<string> {
  const domain = `${reference.toLowerCase()}.example`;
  const onboarded = await call(baseUrl, "POST", "/api/v1/integrations/customer/onboard", partnerHeaders(demo), {
    companyName: `Company ${reference}`,
    contactEmail: `it@${domain}`,
    customerReference: reference,
    assetsDomains: [domain],
    price: 0,
    currencyCode: "EUR",
  });
  expect(onboarded.status, JSON.stringify(onboarded.body)).toBe(200);
  return onboarded.body.customerId as string;
}

/** The event a webhook request carried (Standard Webhooks: the body is the current protocol's event). */
export function eventOf(request: ReceivedRequest): {
  idempotencyToken: string;
  type: string;
  data: { customer?: { uuid?: string; reference?: string } };
} {
  return JSON.parse(request.body);
}

export async function eventually<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
