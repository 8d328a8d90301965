import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { UiSession } from "../../server/api/ui/session";
import { generateSecret, listSecrets } from "../../server/webhooks/secrets";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { createStaffSession, startUiServer } from "../helpers/ui";

/**
 * /api/trpc, the UIs' procedures authenticated by the session cookie, takes state changes only
 * from the service's own pages and only as JSON (docs/operations.md, "Cross-site requests"): a
 * form auto-submitted from another port of the same host once rotated a distributor's signing
 * secret. The production server's own check is tested in test/http/edge-server.test.ts.
 */
let testDb: TestDatabase;
let ui: Awaited<ReturnType<typeof startUiServer>>;
let org: TestOrg;
let staff: UiSession;

beforeAll(async () => {
  testDb = await createTestDatabase();
  ui = await startUiServer(testDb.db);
  org = await createTestOrg(testDb.db, "CrossSite");
  staff = await createStaffSession(testDb.db, org.distributor.id);
  await generateSecret(testDb.db, { distributorId: org.distributor.id });
});
afterAll(async () => {
  await ui?.close();
  await testDb?.close();
});

const secretIds = async () => (await listSecrets(testDb.db, { distributorId: org.distributor.id })).map((secret) => secret.id).sort();

async function cycleSecret(headers: Record<string, string>, body?: BodyInit) {
  const response = await fetch(`${ui.baseUrl}/api/trpc/admin.webhooks.cycleSecret`, {
    method: "POST",
    headers: { ...ui.headersAs(staff), ...headers },
    body,
  });
  return { status: response.status, body: await response.json() };
}

function multipartForm(): FormData {
  const form = new FormData();
  form.set("anything", "1");
  return form;
}

describe("state changes at /api/trpc with a staff session", () => {
  it("refuse a form's multipart body from the same origin with 415, and change nothing", async () => {
    const before = await secretIds();
    const answer = await cycleSecret({ "sec-fetch-site": "same-origin" }, multipartForm());
    expect(answer).toEqual({ status: 415, body: { success: false, error: "Content-Type must be application/json" } });
    expect(await secretIds()).toEqual(before);
  });

  it("refuse a urlencoded form, text/plain and a body without a Content-Type with 415", async () => {
    const before = await secretIds();
    const urlencoded = await cycleSecret({ "content-type": "application/x-www-form-urlencoded" }, "a=1");
    const text = await cycleSecret({ "content-type": "text/plain" }, "{}");
    const none = await cycleSecret({}, new Uint8Array([123, 125]));
    expect([urlencoded.status, text.status, none.status]).toEqual([415, 415, 415]);
    expect(await secretIds()).toEqual(before);
  });

  it("refuse JSON from another site, another port of the host, or an Origin that is not the host's, with 403", async () => {
    const before = await secretIds();
    const json = { "content-type": "application/json" };
    const crossSite = await cycleSecret({ ...json, "sec-fetch-site": "cross-site" }, "{}");
    const sameSite = await cycleSecret({ ...json, "sec-fetch-site": "same-site", origin: "http://127.0.0.1:1" }, "{}");
    const otherOrigin = await cycleSecret({ ...json, origin: "http://attacker.example" }, "{}");
    const multipartCrossSite = await cycleSecret({ "sec-fetch-site": "same-site" }, multipartForm());
    for (const answer of [crossSite, sameSite, otherOrigin, multipartCrossSite]) {
      expect(answer).toEqual({ status: 403, body: { success: false, error: "Cross-site requests are refused" } });
    }
    expect(await secretIds()).toEqual(before);
  });

  it("take JSON from the service's own pages (the admin UI's tRPC client)", async () => {
    const before = await secretIds();
    const answer = await cycleSecret({ "content-type": "application/json", "sec-fetch-site": "same-origin" }, "{}");
    expect(answer.status).toBe(200);
    expect(await secretIds()).not.toEqual(before);
    const fromClient = await ui.clientAs(staff).admin.webhooks.cycleSecret.mutate();
    expect(fromClient.token).toBeTruthy();
  });

  it("leave reads alone: a query from another site is answered (it changes nothing, and the answer stays with the browser)", async () => {
    const response = await fetch(`${ui.baseUrl}/api/trpc/admin.webhooks.secrets`, {
      headers: { ...ui.headersAs(staff), "sec-fetch-site": "cross-site" },
    });
    expect(response.status).toBe(200);
  });
});
