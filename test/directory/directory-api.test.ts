import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createBreachTestCustomer } from "../helpers/breach-fixtures";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { runJobsUntilIdle } from "../helpers/jobs";
import { startMicrosoftCloud } from "../helpers/microsoft-graph";
import { restTestBed } from "../helpers/rest";

const { testDb, server } = restTestBed();
const credentials = { tenantId: randomUUID(), clientId: randomUUID(), clientSecret: `secret-${randomUUID()}` };
let cloud: Awaited<ReturnType<typeof startMicrosoftCloud>>;
let org: TestOrg;
let otherOrg: TestOrg;
const savedEnv = { ...process.env };

beforeAll(async () => {
  cloud = await startMicrosoftCloud(credentials);
  Object.assign(process.env, cloud.env);
  org = await createTestOrg(testDb.db, "Directory API");
  otherOrg = await createTestOrg(testDb.db, "Other");
  cloud.tenant.upsertUser({
    id: randomUUID(),
    displayName: "Olga",
    mail: "olga@fabrikam.example",
    proxyAddresses: ["SMTP:olga@fabrikam.example"],
  });
});
afterAll(async () => {
  process.env = savedEnv;
  await cloud?.close();
});

const path = (customerId: string) => `/api/v1/integrations/customer/${customerId}/directory`;
const body = { provider: "microsoft365", ...credentials };

describe("the directory REST paths", () => {
  it("connect, sync at once, show the state and never the secret", async () => {
    const customerId = (await createBreachTestCustomer(testDb.db, org.partner.id)).id;
    const output = vi.spyOn(process.stdout, "write");
    try {
      const connected = await server.api.call("PUT", path(customerId), { body, headers: org.partner.headers });
      expect(connected.status).toBe(200);
      expect(connected.body).toEqual({
        success: true,
        directory: {
          provider: "microsoft365",
          tenantId: credentials.tenantId,
          clientId: credentials.clientId,
          groupId: null,
          state: "syncing",
          lastSyncAt: null,
          lastError: null,
          activeUsers: 0,
          inactiveUsers: 0,
          mailboxCount: 0,
          verifiedDomains: [],
        },
      });
      await runJobsUntilIdle(testDb.db);
      const shown = await server.api.get(path(customerId), org.partner.headers);
      expect(shown.status).toBe(200);
      expect(shown.body.directory).toMatchObject({ state: "ok", activeUsers: 1, mailboxCount: 1 });
      expect(JSON.stringify(shown.body)).not.toContain(credentials.clientSecret);
      const assets = await server.api.get(`/api/v1/integrations/customer/${customerId}/assets`, org.partner.headers);
      expect(assets.body.emails).toContain("olga@fabrikam.example");
      const logged = output.mock.calls.map(([chunk]) => String(chunk)).join("");
      expect(logged).not.toContain(credentials.clientSecret);
    } finally {
      output.mockRestore();
    }

    const sync = await server.api.post(`${path(customerId)}/sync`, undefined, org.partner.headers);
    expect(sync.status).toBe(202);
    expect(sync.body).toEqual({ success: true });
    expect(await testDb.db.job.count({ where: { kind: "directory.sync", status: "pending" } })).toBe(1);

    const removed = await server.api.delete(path(customerId), org.partner.headers);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ success: true });
    const gone = await server.api.get(path(customerId), org.partner.headers);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ success: false, error: "Directory not connected" });
    const after = await server.api.get(`/api/v1/integrations/customer/${customerId}/assets`, org.partner.headers);
    expect(after.body.emails).toContain("olga@fabrikam.example");
    expect((await server.api.post(`${path(customerId)}/sync`, undefined, org.partner.headers)).body).toEqual({
      success: false,
      error: "Directory not connected",
    });
  });

  it("take the distributor's key on behalf of its partner, and refuse another partner", async () => {
    const customerId = (await createBreachTestCustomer(testDb.db, org.partner.id)).id;
    const onBehalf = await server.api.call("PUT", path(customerId), { body, headers: org.onBehalfHeaders });
    expect(onBehalf.status).toBe(200);
    expect((await server.api.get(path(customerId), org.onBehalfHeaders)).status).toBe(200);
    for (const request of [
      server.api.get(path(customerId), otherOrg.partner.headers),
      server.api.call("PUT", path(customerId), { body, headers: otherOrg.partner.headers }),
      server.api.post(`${path(customerId)}/sync`, undefined, otherOrg.partner.headers),
      server.api.delete(path(customerId), otherOrg.onBehalfHeaders),
    ]) {
      const answer = await request;
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ success: false, error: "Customer not found or does not belong to partner" });
    }
  });

  it("refuse bad input with the declared messages", async () => {
    const customerId = (await createBreachTestCustomer(testDb.db, org.partner.id)).id;
    const put = (changes: Record<string, unknown>) =>
      server.api.call("PUT", path(customerId), { body: { ...body, ...changes }, headers: org.partner.headers });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ provider: "google" }, 'Validation failed: provider: Provider must be "microsoft365"'],
      [
        { tenantId: "not a tenant" },
        "Validation failed: tenantId: Tenant ID must be a directory (tenant) ID or one of the tenant's domains",
      ],
      [{ clientId: "abc" }, "Validation failed: clientId: Client ID must be the application (client) ID, a GUID"],
      [{ clientSecret: "" }, "Validation failed: clientSecret: Client secret is required"],
      [{ groupId: "sales" }, "Validation failed: groupId: Group ID must be the group's object ID, a GUID"],
    ];
    for (const [changes, error] of cases) {
      const answer = await put(changes);
      expect(answer.status, error).toBe(400);
      expect(answer.body).toEqual({ success: false, error });
    }
    const notJson = await server.api.call("PUT", path(customerId), { body: "{", headers: org.partner.headers });
    expect(notJson.body).toEqual({ success: false, error: "Request body must be valid JSON" });
    expect((await put({ tenantId: "contoso.onmicrosoft.com" })).status).toBe(200);
    expect(await testDb.db.directoryConnection.count({ where: { customerId } })).toBe(1);
  });
});
