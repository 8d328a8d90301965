import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBreachTestCustomer } from "../helpers/breach-fixtures";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { FakeConnectWise } from "../helpers/psa-fakes";
import { restTestBed } from "../helpers/rest";

/** The PSA paths over real HTTP: secrets never answered, the URL rules, the mapping, the test call. */
const { testDb, server } = restTestBed();
const credentials = { companyId: "acme_msp", publicKey: "pub-key-1", privateKey: `priv-${randomUUID()}`, clientId: randomUUID() };
const psa = new FakeConnectWise(credentials);
let org: TestOrg;
const savedEnv = { ...process.env };

beforeAll(async () => {
  await psa.start();
  org = await createTestOrg(testDb.db, "PSA API");
});
afterAll(async () => {
  process.env = savedEnv;
  await psa.close();
});

const body = () => ({ provider: "connectwise", site: psa.baseUrl, ...credentials, boardId: psa.boardId });

describe("PUT/GET/DELETE /api/v1/integrations/psa", () => {
  it("refuses an http:// site and a private address unless WEBHOOK_ALLOW_PRIVATE_URLS=true", async () => {
    delete process.env.WEBHOOK_ALLOW_PRIVATE_URLS;
    const plain = await server.api.put("/api/v1/integrations/psa", body(), org.partner.headers);
    expect(plain.status).toBe(400);
    expect(plain.body.error).toBe(
      "Validation failed: site: URL must use https:// (WEBHOOK_ALLOW_PRIVATE_URLS=true allows http:// for local testing)",
    );
    const loopback = await server.api.put("/api/v1/integrations/psa", { ...body(), site: "https://127.0.0.1:8443" }, org.partner.headers);
    expect(loopback.status).toBe(400);
    expect(loopback.body.error).toMatch(/^Validation failed: site: URL must point to a public address: 127\.0\.0\.1 is a loopback address/);
  });

  it("names a field the provider needs, and refuses a wrong provider", async () => {
    process.env.WEBHOOK_ALLOW_PRIVATE_URLS = "true";
    const { boardId: _, ...withoutBoard } = body();
    const missing = await server.api.put("/api/v1/integrations/psa", withoutBoard, org.partner.headers);
    expect(missing.body.error).toBe("Validation failed: boardId: Required for the connectwise provider");
    const wrong = await server.api.put("/api/v1/integrations/psa", { ...body(), provider: "servicenow" }, org.partner.headers);
    expect(wrong.body.error).toBe('Validation failed: provider: Provider must be "connectwise", "autotask" or "halopsa"');
  });

  it("connects, never answers a secret, tests, and disconnects", async () => {
    process.env.WEBHOOK_ALLOW_PRIVATE_URLS = "true";
    expect((await server.api.get("/api/v1/integrations/psa", org.partner.headers)).body.error).toBe("No PSA connected");
    const put = await server.api.put("/api/v1/integrations/psa", body(), org.partner.headers);
    expect(put.status).toBe(200);
    expect(put.body.psa).toMatchObject({ provider: "connectwise", baseUrl: psa.baseUrl, state: "ok", settings: { boardId: psa.boardId } });
    const got = await server.api.get("/api/v1/integrations/psa", org.onBehalfHeaders);
    for (const text of [JSON.stringify(put.body), JSON.stringify(got.body)]) {
      expect(text).not.toContain(credentials.privateKey);
      expect(text).not.toContain(credentials.publicKey);
    }
    const stored = await testDb.db.psaConnection.findUniqueOrThrow({ where: { partnerId: org.partner.id } });
    expect(stored.credentialsCiphertext).not.toContain(credentials.privateKey);
    const audit = await testDb.db.auditEntry.findMany({ where: { action: "psa.connect" } });
    expect(JSON.stringify(audit)).not.toContain(credentials.privateKey);
    expect(JSON.stringify(audit)).not.toContain(credentials.publicKey);

    const test = await server.api.post("/api/v1/integrations/psa/test", {}, org.partner.headers);
    expect(test.body).toEqual({ success: true, ok: true, error: null });
    psa.credentials = { ...credentials, clientId: "someone-else" };
    const failed = await server.api.post("/api/v1/integrations/psa/test", {}, org.partner.headers);
    expect(failed.body).toMatchObject({ success: true, ok: false, error: expect.stringContaining("ConnectWise answered 401") });
    expect((await server.api.get("/api/v1/integrations/psa", org.partner.headers)).body.psa.state).toBe("failing");
    psa.credentials = credentials;

    expect((await server.api.delete("/api/v1/integrations/psa", org.partner.headers)).body).toEqual({ success: true });
    expect((await server.api.delete("/api/v1/integrations/psa", org.partner.headers)).status).toBe(404);
    expect(psa.violations).toEqual([]);
  });
});

describe("PUT /api/v1/integrations/customer/{customerId}/psa", () => {
  it("maps the partner's own customer, and no other's", async () => {
    const customer = await createBreachTestCustomer(testDb.db, org.partner.id);
    const mapped = await server.api.put(`/api/v1/integrations/customer/${customer.id}/psa`, { companyId: 250 }, org.partner.headers);
    expect(mapped.body).toEqual({ success: true, customerId: customer.id, companyId: "250" });
    const other = await createTestOrg(testDb.db, "Other");
    const foreign = await server.api.put(`/api/v1/integrations/customer/${customer.id}/psa`, { companyId: "1" }, other.partner.headers);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe("Customer not found or does not belong to partner");
    const empty = await server.api.put(`/api/v1/integrations/customer/${customer.id}/psa`, { companyId: "" }, org.partner.headers);
    expect(empty.body.error).toBe(
      "Validation failed: companyId: Company ID must be the PSA's id of the customer's company (1 to 100 characters)",
    );
  });
});
