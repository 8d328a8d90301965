import { beforeAll, describe, expect, it } from "vitest";
import { hashApiKey, issueApiKey } from "../../server/auth/api-keys";
import { apiKeyKind, keyChecksum, newApiKey, storedKeyPrefix } from "../../server/auth/key-format";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { documentedPattern, withRandomCharChanged } from "../helpers/key-format";
import { restTestBed } from "../helpers/rest";

/**
 * Keys of our own (docs/security.md, "Key format"): issued keys carried Stripe's `sk_live_`, so
 * secret scanners reported a leaked key to Stripe. New keys carry this service's prefix per kind
 * and a CRC32 checksum; keys issued before keep working. The offline format check: test/unit/key-format.test.ts.
 */
const { testDb, server } = restTestBed();
let org: TestOrg;

beforeAll(async () => {
  org = await createTestOrg(testDb.db, "Keys");
});

const PARTNER_PATH = "/api/v1/integrations/partner/plans";
const DISTRIBUTOR_PATH = "/api/v1/distributors/plans";

describe("issued keys", () => {
  it("carry the service's prefix for their kind and a valid checksum, matching the documented pattern", async () => {
    const pattern = documentedPattern();
    const partnerKey = (await issueApiKey(testDb.db, { partnerId: org.partner.id })).apiKey;
    const distributorKey = (await issueApiKey(testDb.db, { distributorId: org.distributor.id })).apiKey;
    expect(partnerKey).toMatch(/^expmon_p_[0-9A-Za-z]{46}$/);
    expect(distributorKey).toMatch(/^expmon_d_[0-9A-Za-z]{46}$/);
    expect(partnerKey.slice(-6)).toBe(keyChecksum(partnerKey.slice(9, 49)));
    expect([apiKeyKind(partnerKey), apiKeyKind(distributorKey)]).toEqual(["partner", "distributor"]);
    expect(partnerKey).toMatch(pattern);
    expect(distributorKey).toMatch(pattern);
    expect("sk_live_" + "a".repeat(40)).not.toMatch(pattern);
  });

  it("work against their API", async () => {
    expect((await server.api.get(PARTNER_PATH, org.partner.headers)).status).toBe(200);
    expect((await server.api.get(DISTRIBUTOR_PATH, org.distributor.headers)).status).toBe(200);
    expect((await server.api.get("/api/v1/integrations/partner/customers", org.onBehalfHeaders)).status).toBe(200);
  });
});

describe("verification", () => {
  it("refuses a key with a broken checksum before any database lookup", async () => {
    // A row that would accept the broken key if it were looked up.
    const broken = withRandomCharChanged(newApiKey("partner"), 20);
    expect(apiKeyKind(broken)).toBeUndefined();
    const row = await testDb.db.apiKey.create({
      data: { prefix: storedKeyPrefix(broken), keyHash: hashApiKey(broken), partnerId: org.partner.id },
    });
    const res = await server.api.get(PARTNER_PATH, { "SW-PARTNER-ID": org.partner.id, "SW-API-KEY": broken });
    expect({ status: res.status, body: res.body }).toEqual({
      status: 401,
      body: { success: false, error: "Failed to verify org API key" },
    });
    expect((await testDb.db.apiKey.findUniqueOrThrow({ where: { id: row.id } })).lastUsedAt).toBeNull();
  });

  it("keeps accepting sk_live_ keys issued before the new format", async () => {
    const legacy = "sk_live_" + "Legacy0Key1Issued2Before3The4New5Format6".slice(0, 40);
    const row = await testDb.db.apiKey.create({
      data: { prefix: legacy.slice(0, 20), keyHash: hashApiKey(legacy), partnerId: org.partner.id },
    });
    const res = await server.api.get(PARTNER_PATH, { "SW-PARTNER-ID": org.partner.id, "SW-API-KEY": legacy });
    expect(res.status).toBe(200);
    expect((await testDb.db.apiKey.findUniqueOrThrow({ where: { id: row.id } })).lastUsedAt).toBeInstanceOf(Date);

    const legacyDistributorKey = "sk_live_" + "LegacyDistributorKey0123456789abcdefghij";
    await testDb.db.apiKey.create({
      data: { prefix: legacyDistributorKey.slice(0, 20), keyHash: hashApiKey(legacyDistributorKey), distributorId: org.distributor.id },
    });
    const asDistributor = { "SW-DISTRIBUTOR-ID": org.distributor.id, "SW-API-KEY": legacyDistributorKey };
    expect((await server.api.get(DISTRIBUTOR_PATH, asDistributor)).status).toBe(200);
  });

  it("refuses a key whose prefix names the other kind of organization than its row", async () => {
    // A partner-prefixed key stored for a distributor (never issued so): refused, though the hash matches.
    const key = newApiKey("partner");
    await testDb.db.apiKey.create({ data: { prefix: storedKeyPrefix(key), keyHash: hashApiKey(key), distributorId: org.distributor.id } });
    const res = await server.api.get(DISTRIBUTOR_PATH, { "SW-DISTRIBUTOR-ID": org.distributor.id, "SW-API-KEY": key });
    expect(res.status).toBe(401);
  });
});
