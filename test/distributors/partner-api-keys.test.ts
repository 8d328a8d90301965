import { beforeAll, describe, expect, it } from "vitest";
import { hashApiKey } from "../../server/auth/api-keys";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { restTestBed } from "../helpers/rest";

const { testDb, server } = restTestBed();
let orgX: TestOrg;
let orgY: TestOrg;

beforeAll(async () => {
  orgX = await createTestOrg(testDb.db, "X");
  orgY = await createTestOrg(testDb.db, "Y");
});

const keysPath = (partnerId: string) => `/api/v1/distributors/partners/${partnerId}/api-keys`;
const PLANS = "/api/v1/integrations/partner/plans";

describe("partner API keys over the distributor API", () => {
  it("issues a working key shown once, lists it without the secret, and revokes it at once", async () => {
    const issued = await server.api.post(keysPath(orgX.partner.id), undefined, orgX.distributor.headers);
    expect(issued.status).toBe(200);
    expect(issued.body).toEqual({
      success: true,
      data: { id: expect.stringMatching(/^[0-9a-f-]{36}$/), apiKey: expect.stringMatching(/^expmon_p_[0-9A-Za-z]{46}$/) },
    });
    const { id, apiKey } = issued.body.data;
    const row = await testDb.db.apiKey.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ partnerId: orgX.partner.id, keyHash: hashApiKey(apiKey) });

    const headers = { "SW-PARTNER-ID": orgX.partner.id, "SW-API-KEY": apiKey };
    expect((await server.api.get(PLANS, headers)).status).toBe(200);

    const list = await server.api.get(keysPath(orgX.partner.id), orgX.distributor.headers);
    expect(list.status).toBe(200);
    expect(list.body.success).toBe(true);
    const listed = list.body.data.find((key: { id: string }) => key.id === id);
    expect(listed).toEqual({
      id,
      prefix: apiKey.slice(0, 21),
      createdAt: row.createdAt.toISOString(),
      lastUsedAt: expect.any(String),
      revokedAt: null,
    });
    expect(JSON.stringify(list.body)).not.toContain(apiKey);
    expect(list.body.data).toHaveLength(2); // the fixture's key and this one, newest first
    expect(list.body.data[0].id).toBe(id);

    const revoked = await server.api.delete(`${keysPath(orgX.partner.id)}/${id}`, orgX.distributor.headers);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ success: true });
    const refused = await server.api.get(PLANS, headers);
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ success: false, error: "Failed to verify org API key" });
    // the partner's other key still works; revoking again is harmless
    expect((await server.api.get(PLANS, orgX.partner.headers)).status).toBe(200);
    expect((await server.api.delete(`${keysPath(orgX.partner.id)}/${id}`, orgX.distributor.headers)).status).toBe(200);
    const after = await server.api.get(keysPath(orgX.partner.id), orgX.distributor.headers);
    expect(after.body.data.find((key: { id: string }) => key.id === id).revokedAt).toEqual(expect.any(String));
  });

  it("keeps every distributor to its own partners", async () => {
    const foreign = orgY.partner.id;
    for (const res of [
      await server.api.post(keysPath(foreign), undefined, orgX.distributor.headers),
      await server.api.get(keysPath(foreign), orgX.distributor.headers),
      await server.api.delete(`${keysPath(foreign)}/${crypto.randomUUID()}`, orgX.distributor.headers),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ success: false, error: "Partner not found" });
    }
    expect(await testDb.db.apiKey.count({ where: { partnerId: foreign } })).toBe(1);
  });

  it("does not revoke a key through another partner's path", async () => {
    const yKey = await testDb.db.apiKey.findFirstOrThrow({ where: { partnerId: orgY.partner.id } });
    const res = await server.api.delete(`${keysPath(orgX.partner.id)}/${yKey.id}`, orgX.distributor.headers);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, error: "API key not found" });
    expect((await testDb.db.apiKey.findUniqueOrThrow({ where: { id: yKey.id } })).revokedAt).toBeNull();
  });

  it("validates the partner id and the key id", async () => {
    const bad = await server.api.get(keysPath("nope"), orgX.distributor.headers);
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ success: false, error: "Partner ID must be a valid UUID" });
    const badKey = await server.api.delete(`${keysPath(orgX.partner.id)}/nope`, orgX.distributor.headers);
    expect(badKey.status).toBe(404);
    expect(badKey.body).toEqual({ success: false, error: "API key not found" });
  });

  it("requires distributor credentials: a partner cannot mint its own keys", async () => {
    const res = await server.api.post(keysPath(orgX.partner.id), undefined, orgX.partner.headers);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ success: false, error: "Distributor ID and API key are required in headers" });
  });
});
