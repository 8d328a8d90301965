import { randomUUID } from "node:crypto";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { request as httpRequest, type IncomingMessage } from "node:http";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { NOT_A_BREACH_IMPORTER } from "../../server/api/ui/admin/breach-data";
import { createBreachDataUploadHandler, SERVICE_TOKEN_REFUSED, SIGN_IN_FIRST } from "../../server/api/ui/breach-data-upload";
import type { UiSession } from "../../server/api/ui/session";
import { roleRefusalMessage } from "../../server/auth/staff-roles";
import { parseAdminCommand } from "../../server/cli/admin";
import { BREACH_UPLOAD_LIMITS } from "../../server/breaches/exposure-index/uploads";
import { MATCH_NEW_EXPOSURES_JOB } from "../../server/breaches/exposure-index/match-requests";
import { runDueJobs } from "../../server/jobs/worker";
import { readServiceAccess, writeServiceAccess } from "../../server/service-access";
import { jobCatalogue } from "../../server/startup/job-catalogue";
import { createBreachTestCustomer, hibpBreach } from "../helpers/breach-fixtures";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { sendFetchResponse } from "../helpers/fetch-bridge";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { listenOnLoopback, type LoopbackServer } from "../helpers/http";
import { createStaffSession, uiCallerAs } from "../helpers/ui";

/**
 * The admin UI's breach-data upload (docs/admin-ui.md, "Breach data") over real HTTP on
 * 127.0.0.1: the request body streamed to the handler as the route gets it, the test standing in
 * for next-auth (a request's session is the one registered for its x-test-session header). Who may
 * upload, the import report with its rejected positions, the audit row, matching that reaches a
 * monitored customer, the service token of the admin CLI, and bad or oversized files refused
 * with a clear error and nothing changed.
 */
let testDb: TestDatabase;
let org: TestOrg;
let server: LoopbackServer;
let dataDir: string;
let removeAccess: () => void;
let owner: UiSession;
const sessions = new Map<string, UiSession>();

/** A Node request as a fetch Request whose body streams (the production route's shape, unlike the buffering test bridge). */
function streamingRequest(req: IncomingMessage): Request {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  return new Request(new URL(req.url ?? "/", "http://localhost"), {
    method: req.method,
    headers,
    body: req.method === "POST" ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined,
    duplex: "half",
  } as RequestInit);
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), "breach-upload-"));
  vi.stubEnv("DATA_DIR", dataDir);
  testDb = await createTestDatabase();
  org = await createTestOrg(testDb.db);
  await testDb.db.distributor.update({ where: { id: org.distributor.id }, data: { importsBreachData: true } });
  owner = await createStaffSession(testDb.db, org.distributor.id, "owner");
  const handle = createBreachDataUploadHandler({
    getDb: async () => testDb.db,
    getSession: async (request) => sessions.get(request.headers.get("x-test-session") ?? ""),
  });
  server = await listenOnLoopback(async (req, res) => sendFetchResponse(req, res, await handle(streamingRequest(req))));
  removeAccess = writeServiceAccess(server.baseUrl, dataDir);
});
afterAll(async () => {
  removeAccess?.();
  vi.unstubAllEnvs();
  await server?.close();
  await testDb?.close();
  await rm(dataDir, { recursive: true, force: true });
});

function as(session: UiSession | undefined): Record<string, string> {
  if (!session) return {};
  const token = randomUUID();
  sessions.set(token, session);
  return { "x-test-session": token };
}

async function post(pathAndQuery: string, body: BodyInit, headers: Record<string, string> = as(owner)) {
  const response = await fetch(`${server.baseUrl}/api/breach-data/${pathAndQuery}`, {
    method: "POST",
    headers,
    body,
    duplex: "half",
  } as RequestInit);
  return { status: response.status, body: (await response.json()) as any };
}

const exposureCount = () => testDb.db.breachExposure.count();
const leftoverUploads = async () => (await readdir(path.join(dataDir, "uploads")).catch(() => [])).length;

async function runMatching(): Promise<void> {
  for (let count = -1; count !== 0;) count = await runDueJobs(testDb.db, jobCatalogue, { kinds: [MATCH_NEW_EXPOSURES_JOB] });
}

describe("an owner of an allowed distributor uploads a catalogue and its accounts", () => {
  it("imports both, reports rows, additions and rejected positions, audits each, and the matching reaches the monitored customer", async () => {
    const customer = await createBreachTestCustomer(testDb.db, org.partner.id, { domains: ["firsthour.example"] });
    const since = new Date(Date.now() - 5);

    const catalogue = await post(
      "catalogue",
      JSON.stringify([hibpBreach("FirstHourBreach"), { Name: "Broken" }, hibpBreach("FirstHourStealer", { IsStealerLog: true })]),
    );
    expect(catalogue.status).toBe(200);
    expect(catalogue.body).toMatchObject({
      success: true,
      report: { kind: "catalogue", breaches: 2, rejectedCount: 1, rejected: [{ record: 2, name: "Broken", reason: expect.any(String) }] },
    });

    const accounts = await post(
      "accounts",
      "email,breach_name\nceo@firsthour.example,FirstHourBreach\nnot-an-address,FirstHourBreach\nit@firsthour.example,NoSuchBreach\n",
    );
    expect(accounts.status).toBe(200);
    expect(accounts.body.report).toEqual({
      kind: "accounts",
      rows: 3,
      added: 1,
      rejectedCount: 2,
      rejected: [
        { line: 3, reason: 'invalid e-mail address "not-an-address"' },
        { line: 4, reason: 'unknown breach "NoSuchBreach"' },
      ],
    });

    await runMatching();
    const instances = await testDb.db.customerBreach.findMany({ where: { customerId: customer.id }, include: { breach: true } });
    expect(instances.map((row) => [row.breach.name, row.emails])).toEqual([["FirstHourBreach", ["ceo@firsthour.example"]]]);

    const rows = await testDb.db.auditEntry.findMany({
      where: { action: "breaches.import", createdAt: { gte: since } },
      orderBy: { createdAt: "asc" },
    });
    expect(rows.map((row) => [row.actorKind, row.actorLabel, row.distributorId, row.targetId])).toEqual([
      ["staff", owner.kind === "staff" ? owner.email : "", org.distributor.id, "catalogue"],
      ["staff", owner.kind === "staff" ? owner.email : "", org.distributor.id, "accounts"],
    ]);
    expect(rows[1]!.after).toMatchObject({ kind: "accounts", rows: 3, added: 1, rejectedCount: 2, bytes: expect.any(Number) });
    expect(await leftoverUploads()).toBe(0);
  });

  it("imports a stealer-log file into a stealer-log breach and says which breach", async () => {
    const since = new Date(Date.now() - 5);
    const answer = await post(
      "stealer-logs?breach=FirstHourStealer",
      "email,website_domain,captured_at\nceo@firsthour.example,https://bank.example/login,2025-03-01\nbad,bank.example\n",
    );
    expect(answer.status).toBe(200);
    expect(answer.body.report).toMatchObject({
      kind: "stealer-logs",
      breach: "FirstHourStealer",
      rows: 2,
      added: 1,
      addresses: 1,
      rejectedCount: 1,
      rejected: [{ line: 3, reason: 'invalid e-mail address "bad"' }],
      resumedAtByte: 0,
    });
    expect(await testDb.db.auditEntry.count({ where: { action: "breaches.import-stealer-logs", createdAt: { gte: since } } })).toBe(1);
    expect(await leftoverUploads()).toBe(0);
  });
});

describe("who may upload", () => {
  it("refuses without a staff session (401), roles below owner (403 naming the role) and owners of a distributor not allowed (403)", async () => {
    const before = await exposureCount();
    const csv = "email,breach_name\nwho@firsthour.example,FirstHourBreach\n";
    expect(await post("accounts", csv, {})).toEqual({ status: 401, body: { success: false, error: SIGN_IN_FIRST } });
    const admin = await createStaffSession(testDb.db, org.distributor.id, "admin");
    expect(await post("accounts", csv, as(admin))).toEqual({
      status: 403,
      body: { success: false, error: roleRefusalMessage("owner", "admin") },
    });
    const other = await createTestOrg(testDb.db);
    const otherOwner = await createStaffSession(testDb.db, other.distributor.id, "owner");
    expect(await post("accounts", csv, as(otherOwner))).toEqual({ status: 403, body: { success: false, error: NOT_A_BREACH_IMPORTER } });
    expect(await exposureCount()).toBe(before);
  });

  it("the operator's set-breach-importer grants and takes back the upload (--off), and the page's access says so", async () => {
    const other = await createTestOrg(testDb.db);
    const otherOwner = await createStaffSession(testDb.db, other.distributor.id, "owner");
    const cli = (argv: string[]) => {
      const { command, values } = parseAdminCommand(["set-breach-importer", ...argv]);
      return command.run(testDb.db, values);
    };
    expect(await cli(["--distributor", other.distributor.id])).toEqual({ id: other.distributor.id, importsBreachData: true });
    expect(await uiCallerAs(testDb.db, otherOwner).admin.breachData.access()).toMatchObject({ mayImport: true });
    const csv = "email,breach_name\ngranted@firsthour.example,FirstHourBreach\n";
    expect(await post("accounts", csv, as(otherOwner))).toMatchObject({ status: 200, body: { report: { added: 1 } } });
    expect(await cli(["--distributor", other.distributor.id, "--off"])).toEqual({ id: other.distributor.id, importsBreachData: false });
    expect(await uiCallerAs(testDb.db, otherOwner).admin.breachData.access()).toMatchObject({
      mayImport: false,
      refusal: NOT_A_BREACH_IMPORTER,
    });
    expect(await post("accounts", csv, as(otherOwner))).toEqual({ status: 403, body: { success: false, error: NOT_A_BREACH_IMPORTER } });
  });

  it("refuses a state change from another site", async () => {
    const answer = await post("accounts", "email,breach_name\n", { ...as(owner), "sec-fetch-site": "cross-site" });
    expect(answer.status).toBe(403);
  });

  it("takes the running server's service token (the admin CLI's credential, audited as cli) and refuses any other", async () => {
    const since = new Date(Date.now() - 5);
    const token = readServiceAccess(dataDir)!.token;
    const csv = "email,breach_name\ncli@firsthour.example,FirstHourBreach\n";
    const accepted = await post("accounts", csv, { authorization: `Bearer ${token}` });
    expect(accepted).toMatchObject({ status: 200, body: { report: { added: 1 } } });
    const row = await testDb.db.auditEntry.findFirstOrThrow({ where: { action: "breaches.import", createdAt: { gte: since } } });
    expect(row).toMatchObject({ actorKind: "cli", actorLabel: "cli", distributorId: null });
    expect(await post("accounts", csv, { authorization: `Bearer ${token}x` })).toEqual({
      status: 401,
      body: { success: false, error: SERVICE_TOKEN_REFUSED },
    });
  });
});

describe("bad files get a clear error and change nothing", () => {
  it("a catalogue that is not JSON, or not an array; accounts without the header; an unknown kind; a stealer-log upload without its breach", async () => {
    const before = { exposures: await exposureCount(), breaches: await testDb.db.breach.count() };
    expect(await post("catalogue", "{not json")).toMatchObject({
      status: 400,
      body: { success: false, error: expect.stringMatching(/^The catalogue is not valid JSON: /) },
    });
    expect(await post("catalogue", '{"Name":"x"}')).toEqual({
      status: 400,
      body: { success: false, error: "The catalogue must be a JSON array of breaches (Have I Been Pwned's v3 format)" },
    });
    expect(await post("accounts", "address,breach\nceo@firsthour.example,FirstHourBreach\n")).toEqual({
      status: 400,
      body: {
        success: false,
        error: 'The accounts file cannot be imported: line 1: the accounts file must start with the header "email,breach_name"',
      },
    });
    expect(await post("accounts", "")).toEqual({ status: 400, body: { success: false, error: "The accounts file is empty" } });
    expect(await post("passwords", "x")).toMatchObject({ status: 404, body: { success: false } });
    expect(await post("stealer-logs", "email,website_domain\n")).toEqual({
      status: 400,
      body: { success: false, error: "Name the stealer-log breach the file belongs to (breach)" },
    });
    expect(await post("stealer-logs?breach=FirstHourBreach", "email,website_domain\na@firsthour.example,x.example\n")).toEqual({
      status: 400,
      body: {
        success: false,
        error:
          'The stealer-log file cannot be imported: breach "FirstHourBreach" is not a stealer-log breach (IsStealerLog is false in the catalogue)',
      },
    });
    expect({ exposures: await exposureCount(), breaches: await testDb.db.breach.count() }).toEqual(before);
    expect(await leftoverUploads()).toBe(0);
  });

  it("a file over its limit is refused with 413 as it streams in (no Content-Length), and nothing of it stays on disk", async () => {
    const limit = BREACH_UPLOAD_LIMITS.catalogue;
    const chunk = new Uint8Array(1024 * 1024).fill(32);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > limit + 4 * chunk.length) return controller.close();
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const answer = await post("catalogue", body);
    expect(answer).toEqual({
      status: 413,
      body: {
        success: false,
        error: "The catalogue file is larger than the upload limit of 64 MiB: import it with the admin CLI on the server's machine",
      },
    });
    expect(await leftoverUploads()).toBe(0);
  });

  it("a declared Content-Length over the limit is refused before the body is read", async () => {
    const answer = await new Promise<{ status: number; body: any }>((resolve, reject) => {
      const req = httpRequest(`${server.baseUrl}/api/breach-data/accounts`, {
        method: "POST",
        headers: { ...as(owner), "content-length": String(BREACH_UPLOAD_LIMITS.accounts + 1) },
      });
      req.on("response", (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) });
          req.destroy();
        });
      });
      req.on("error", reject);
      req.write("email,breach_name\n"); // and nothing more: the answer must not wait for the rest
    });
    expect(answer).toEqual({
      status: 413,
      body: {
        success: false,
        error: "The accounts file is larger than the upload limit of 2 GiB: import it with the admin CLI on the server's machine",
      },
    });
    expect(await leftoverUploads()).toBe(0);
  });
});
