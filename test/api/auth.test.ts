import { beforeAll, describe, expect, it } from "vitest";
import { issueApiKey, revokeApiKey } from "../../server/auth/api-keys";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { restTestBed } from "../helpers/rest";

const { testDb, server } = restTestBed();
let org: TestOrg;
let otherOrg: TestOrg;

beforeAll(async () => {
  org = await createTestOrg(testDb.db, "Alpha");
  otherOrg = await createTestOrg(testDb.db, "Beta");
});

const PARTNER_PATH = "/api/v1/integrations/partner/plans";
const DISTRIBUTOR_PATH = "/api/v1/distributors/plans";

describe("partner authentication", () => {
  it("accepts the partner's own key", async () => {
    const res = await server.api.get(PARTNER_PATH, org.partner.headers);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
  });

  it.each([
    ["no headers", {}],
    ["only the partner id", () => ({ "SW-PARTNER-ID": org.partner.id })],
    ["only the key", () => ({ "SW-API-KEY": org.partner.apiKey })],
    ["blank values", { "SW-PARTNER-ID": " ", "SW-API-KEY": "" }],
  ])("refuses %s with 401 and the required-headers message", async (_name, headers) => {
    const res = await server.api.get(PARTNER_PATH, typeof headers === "function" ? headers() : headers);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, error: "Partner ID and API key are required in headers" });
  });

  it.each([
    ["an unknown key", () => ({ "SW-PARTNER-ID": org.partner.id, "SW-API-KEY": "sk_live_" + "x".repeat(40) })],
    ["a malformed key", () => ({ "SW-PARTNER-ID": org.partner.id, "SW-API-KEY": "not-a-key" })],
    ["another partner's key", () => ({ "SW-PARTNER-ID": org.partner.id, "SW-API-KEY": otherOrg.partner.apiKey })],
    ["a partner id that is not a uuid", () => ({ "SW-PARTNER-ID": "partner-1", "SW-API-KEY": org.partner.apiKey })],
    ["an unknown partner id", () => ({ "SW-PARTNER-ID": crypto.randomUUID(), "SW-API-KEY": org.partner.apiKey })],
    ["the key with one character changed", () => ({ "SW-PARTNER-ID": org.partner.id, "SW-API-KEY": flipLastChar(org.partner.apiKey) })],
    ["a distributor key on a partner-only endpoint", () => org.onBehalfHeaders],
  ])("refuses %s with 401 'Failed to verify org API key'", async (_name, headers) => {
    const res = await server.api.get(PARTNER_PATH, headers());
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, error: "Failed to verify org API key" });
  });

  it("matches header names case-insensitively", async () => {
    const res = await server.api.get(PARTNER_PATH, { "sw-partner-id": org.partner.id, "sw-api-key": org.partner.apiKey });
    expect(res.status).toBe(200);
  });
});

describe("distributor authentication", () => {
  it("accepts the distributor's own key", async () => {
    const res = await server.api.get(DISTRIBUTOR_PATH, org.distributor.headers);
    expect(res.status).toBe(200);
  });

  it("refuses missing headers with 401", async () => {
    const res = await server.api.get(DISTRIBUTOR_PATH, { "SW-API-KEY": org.distributor.apiKey });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, error: "Distributor ID and API key are required in headers" });
  });

  it.each([
    ["another distributor's key", () => ({ "SW-DISTRIBUTOR-ID": org.distributor.id, "SW-API-KEY": otherOrg.distributor.apiKey })],
    ["a partner key", () => ({ "SW-DISTRIBUTOR-ID": org.distributor.id, "SW-API-KEY": org.partner.apiKey })],
    ["partner headers", () => org.partner.headers],
  ])("refuses %s", async (_name, headers) => {
    const res = await server.api.get(DISTRIBUTOR_PATH, headers());
    expect(res.status).toBe(401);
    expect(res.body.success).toBe(false);
  });
});

describe("key lifecycle", () => {
  it("stores only a hash and a prefix, and a revoked key stops working at once", async () => {
    const issued = await issueApiKey(testDb.db, { partnerId: org.partner.id });
    const row = await testDb.db.apiKey.findUniqueOrThrow({ where: { id: issued.id } });
    expect(row.keyHash).not.toContain(issued.apiKey);
    expect(issued.apiKey.startsWith(row.prefix)).toBe(true);
    expect(row.keyHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(issued.apiKey);

    const headers = { "SW-PARTNER-ID": org.partner.id, "SW-API-KEY": issued.apiKey };
    expect((await server.api.get(PARTNER_PATH, headers)).status).toBe(200);
    const used = await testDb.db.apiKey.findUniqueOrThrow({ where: { id: issued.id } });
    expect(used.lastUsedAt).toBeInstanceOf(Date);

    await revokeApiKey(testDb.db, { partnerId: org.partner.id }, issued.id);
    const res = await server.api.get(PARTNER_PATH, headers);
    expect(res.status).toBe(401);
    expect(res.body.error).toBe("Failed to verify org API key");
    // the organization's other keys are unaffected
    expect((await server.api.get(PARTNER_PATH, org.partner.headers)).status).toBe(200);
  });

  it("refuses to revoke another organization's key", async () => {
    const issued = await issueApiKey(testDb.db, { partnerId: otherOrg.partner.id });
    await expect(revokeApiKey(testDb.db, { partnerId: org.partner.id }, issued.id)).rejects.toThrow("API key not found");
    const row = await testDb.db.apiKey.findUniqueOrThrow({ where: { id: issued.id } });
    expect(row.revokedAt).toBeNull();
  });

  it("issues distinct keys", async () => {
    const keys = await Promise.all(Array.from({ length: 20 }, () => issueApiKey(testDb.db, { partnerId: org.partner.id })));
    expect(new Set(keys.map((k) => k.apiKey)).size).toBe(20);
    for (const key of keys) expect(key.apiKey).toMatch(/^expmon_p_[0-9A-Za-z]{46}$/);
  });
});

function flipLastChar(key: string): string {
  return key.slice(0, -1) + (key.endsWith("a") ? "b" : "a");
}
