import { execFile } from "node:child_process";
import { existsSync, rmSync, statSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serviceEnvironment, startServiceProcess, type ServiceProcess } from "../../scripts/lib/service-process";
import { hibpBreach } from "../helpers/breach-fixtures";

/**
 * The first hour on the embedded database (README, "Try your own domain"): the production server
 * as `npm start` runs it holds DATA_DIR, and while it runs the admin CLI's import-breaches sends
 * the files to it (the token it wrote into DATA_DIR), the demo owner uploads through the admin UI's
 * upload path with a real session cookie, and what both import reaches a customer onboarded over
 * the REST API with its own domain, by incremental matching. Bad files fail with a clear message
 * and change nothing; with the server stopped, the token file is gone.
 */
let server: ServiceProcess;
const dir = path.join(tmpdir(), `through-service-${process.pid}`);
const dataDir = path.join(dir, "data");
const files = path.join(dir, "files");
const tsxCli = createRequire(import.meta.url).resolve("tsx/cli");
const domain = `firsthour-${process.pid}.example`;
let customerId: string;

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

function admin(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [tsxCli, "scripts/admin.ts", ...argv], { env: serviceEnvironment({ dataDir }) }, (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const partnerHeaders = () => ({ "SW-PARTNER-ID": server.demo.partnerId, "SW-API-KEY": server.demo.partnerKey });

async function customerBreaches(): Promise<Array<{ breachName: string; emails: string[] }>> {
  const response = await fetch(`${server.baseUrl}/api/v1/integrations/customer/${customerId}/breaches`, { headers: partnerHeaders() });
  const body = (await response.json()) as { breaches: Array<{ breachName: string; emails: string[] }> };
  return body.breaches
    .map(({ breachName, emails }) => ({ breachName, emails: [...emails].sort() }))
    .sort((a, b) => a.breachName.localeCompare(b.breachName));
}

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

beforeAll(async () => {
  server = await startServiceProcess({
    port: await freePort(),
    dataDir,
    logFile: path.join(dir, "server.log"),
    env: { NODE_ENV: "production", LOG_LEVEL: "info" },
  });
  await mkdir(files, { recursive: true });
  await writeFile(
    path.join(files, "catalogue.json"),
    JSON.stringify([hibpBreach("FirstHourCliBreach"), hibpBreach("FirstHourUiBreach"), { Name: "Broken" }]),
  );
  await writeFile(
    path.join(files, "accounts.csv"),
    `email,breach_name\nceo@${domain},FirstHourCliBreach\nnot-an-address,FirstHourCliBreach\nit@${domain},FirstHourCliBreach\n`,
  );
  const onboarded = await fetch(`${server.baseUrl}/api/v1/integrations/customer/onboard`, {
    method: "POST",
    headers: { ...partnerHeaders(), "content-type": "application/json" },
    body: JSON.stringify({
      companyName: "First Hour Ltd",
      contactEmail: `it@${domain}`,
      customerReference: `FIRST-HOUR-${process.pid}`,
      assetsDomains: [domain],
      price: 10,
      currencyCode: "EUR",
    }),
  });
  customerId = ((await onboarded.json()) as { customerId: string }).customerId;
}, 900_000);

afterAll(async () => {
  if (server) {
    server.stop();
    await server.exited;
  }
  rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe("import-breaches while the server holds the embedded database", () => {
  it("the server wrote its address and token into DATA_DIR, readable by its own user only", () => {
    expect(statSync(path.join(dataDir, "service-access.json")).mode & 0o777).toBe(0o600);
  });

  it("sends the files to the running server, prints the CLI's answer and report, and the findings reach the customer", async () => {
    expect(await customerBreaches()).toEqual([]);
    const run = await admin(
      "import-breaches",
      "--catalogue",
      path.join(files, "catalogue.json"),
      "--accounts",
      path.join(files, "accounts.csv"),
    );
    expect(run.stderr).toContain("the embedded database is in use by the running server: sending the files to it");
    expect(run.stderr).toContain("catalogue record 3 (Broken) rejected: ");
    expect(run.stderr).toContain('accounts line 3 rejected: invalid e-mail address "not-an-address"');
    expect(run.stderr).toMatch(/import-breaches: 2 breaches \(1 rejected\); 3 account rows read, 2 added, 1 rejected; /);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ breaches: 2, accounts: 2 });
    const findings = await eventually(customerBreaches, (breaches) => breaches.length > 0);
    expect(findings).toEqual([{ breachName: "FirstHourCliBreach", emails: [`ceo@${domain}`, `it@${domain}`] }]);
  });

  it("a file the server refuses fails with its message (exit 1) and adds nothing", async () => {
    await writeFile(path.join(files, "bad.csv"), `address,breach\nboss@${domain},FirstHourUiBreach\n`);
    const run = await admin(
      "import-breaches",
      "--catalogue",
      path.join(files, "catalogue.json"),
      "--accounts",
      path.join(files, "bad.csv"),
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      "the running server refused the accounts file " +
        `${path.join(files, "bad.csv")} (400): The accounts file cannot be imported: line 1: the accounts file must start with the header "email,breach_name"`,
    );
    const missing = await admin("import-breaches", "--catalogue", path.join(files, "none.json"));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`cannot read the catalogue file ${path.join(files, "none.json")}`);
    expect((await customerBreaches()).map((breach) => breach.breachName)).toEqual(["FirstHourCliBreach"]);
  });
});

describe("the admin UI's upload on the running server", () => {
  async function signIn(): Promise<string> {
    const cookies = new Map<string, string>();
    const take = (response: Response) => {
      for (const cookie of response.headers.getSetCookie()) {
        const [pair] = cookie.split(";", 1);
        const at = pair!.indexOf("=");
        cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
      }
    };
    const header = () => [...cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    const csrf = await fetch(`${server.baseUrl}/api/auth/csrf`);
    take(csrf);
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    take(
      await fetch(`${server.baseUrl}/api/auth/callback/staff`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie: header(), "sec-fetch-site": "same-origin" },
        body: new URLSearchParams({
          csrfToken,
          email: server.demo.staffEmail,
          password: server.demo.staffPassword,
          callbackUrl: `${server.baseUrl}/admin`,
          json: "true",
        }),
      }),
    );
    return header();
  }

  it("the demo owner uploads an accounts file with the session cookie; the report comes back and the customer gets the finding", async () => {
    const cookie = await signIn();
    const upload = (body: string, headers: Record<string, string> = { "sec-fetch-site": "same-origin" }) =>
      fetch(`${server.baseUrl}/api/breach-data/accounts`, {
        method: "POST",
        headers: { cookie, "content-type": "text/csv", ...headers },
        body,
      });
    const crossSite = await upload(`email,breach_name\nboss@${domain},FirstHourUiBreach\n`, { "sec-fetch-site": "cross-site" });
    expect(crossSite.status).toBe(403);
    const response = await upload(`email,breach_name\nboss@${domain},FirstHourUiBreach\n`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      success: true,
      report: { kind: "accounts", rows: 1, added: 1, rejectedCount: 0, rejected: [] },
    });
    const findings = await eventually(customerBreaches, (breaches) => breaches.length > 1);
    expect(findings).toEqual([
      { breachName: "FirstHourCliBreach", emails: [`ceo@${domain}`, `it@${domain}`] },
      { breachName: "FirstHourUiBreach", emails: [`boss@${domain}`] },
    ]);
    const page = await fetch(`${server.baseUrl}/admin/breach-data`, { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Breaches and exposed accounts");
  });

  it("without a session the upload is refused with 401", async () => {
    const response = await fetch(`${server.baseUrl}/api/breach-data/accounts`, {
      method: "POST",
      headers: { "sec-fetch-site": "same-origin" },
      body: "email,breach_name\n",
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ success: false, error: "Sign in to the admin UI first" });
  });
});

describe("after the server stops", () => {
  it("the token file is removed, and the CLI opens the embedded database itself again", async () => {
    server.stop();
    await server.exited;
    expect(existsSync(path.join(dataDir, "service-access.json"))).toBe(false);
    const run = await admin("import-breaches", "--catalogue", path.join(files, "catalogue.json"));
    expect(run.stderr).not.toContain("running server");
    expect(JSON.parse(run.stdout)).toEqual({ breaches: 2, accounts: 0 });
  }, 120_000);
});
