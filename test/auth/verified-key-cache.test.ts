import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { authenticatePartner, INVALID_API_KEY, issueApiKey, revokeApiKey } from "../../server/auth/api-keys";
import { API_KEY_REVOKED_CHANNEL, VERIFIED_KEY_TTL_MS, VerifiedKeyCache } from "../../server/auth/verified-key-cache";
import { openDatabase, type Database } from "../../server/db/client";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";

let testDb: TestDatabase;
let org: TestOrg;

beforeAll(async () => {
  testDb = await createTestDatabase();
  org = await createTestOrg(testDb.db, "Cache");
});

afterAll(async () => {
  await testDb?.close();
});

const headersOf = (partnerId: string, apiKey: string) => new Headers({ "sw-partner-id": partnerId, "sw-api-key": apiKey });

async function newPartnerKey(): Promise<{ id: string; headers: Headers }> {
  const issued = await issueApiKey(testDb.db, { partnerId: org.partner.id });
  return { id: issued.id, headers: headersOf(org.partner.id, issued.apiKey) };
}

/** Revokes in SQL, as an operator could, without the notification that revokeApiKey sends. */
async function revokeSilently(keyId: string): Promise<void> {
  await testDb.db.$executeRaw`UPDATE api_keys SET revoked_at = now() WHERE id = ${keyId}::uuid`;
}

const authenticate = (db: TestDatabase["db"], headers: Headers) => authenticatePartner(db, headers, { allowDistributorKey: false });

/** Retries `check` until it passes (vitest's waitFor, every 25 ms). */
const eventually = (check: () => Promise<unknown>, timeout = 5_000) => vi.waitFor(check, { timeout, interval: 25 });

describe("verified API keys in the process", () => {
  it("are served from the cache: a key revoked without notification still passes here until a NOTIFY names it", async () => {
    const key = await newPartnerKey();
    await authenticate(testDb.db, key.headers);
    await eventually(async () => expect(testDb.database.listenNotify.listening()).toBe(true));
    await authenticate(testDb.db, key.headers); // cached now that the revocation channel is listened to

    await revokeSilently(key.id);
    await expect(authenticate(testDb.db, key.headers)).resolves.toMatchObject({ apiKeyId: key.id });

    await testDb.db.$executeRaw`SELECT pg_notify(${API_KEY_REVOKED_CHANNEL}, ${key.id})`;
    await eventually(() => expect(authenticate(testDb.db, key.headers)).rejects.toThrow(INVALID_API_KEY));
  });

  it("a key revoked through revokeApiKey stops at once in the revoking process", async () => {
    const key = await newPartnerKey();
    await authenticate(testDb.db, key.headers);
    await authenticate(testDb.db, key.headers);
    await revokeApiKey(testDb.db, { partnerId: org.partner.id }, key.id);
    await expect(authenticate(testDb.db, key.headers)).rejects.toThrow(INVALID_API_KEY);
  });

  it("a failed verification is not cached: a key is checked again on its next use", async () => {
    const key = await newPartnerKey();
    const wrongPartner = headersOf(org.distributor.id, key.headers.get("sw-api-key")!);
    await expect(authenticate(testDb.db, wrongPartner)).rejects.toThrow(INVALID_API_KEY);
    await expect(authenticate(testDb.db, key.headers)).resolves.toMatchObject({ apiKeyId: key.id });
  });
});

describe.runIf(Boolean(process.env.TEST_DATABASE_URL))("across processes (a second connection pool on the same database)", () => {
  let other: Database;

  beforeAll(async () => {
    other = await openDatabase({ url: testDb.url! });
  });

  afterAll(async () => {
    await other?.close();
  });

  it("a revocation in one process is announced to the others, and stops the key where it was cached", async () => {
    const announced: string[] = [];
    await other.listenNotify.subscribe(API_KEY_REVOKED_CHANNEL, { onMessage: (id) => announced.push(id), onGap: () => undefined });
    const key = await newPartnerKey();
    await authenticate(other.prisma, key.headers);
    await eventually(async () => expect(other.listenNotify.listening()).toBe(true));
    await authenticate(other.prisma, key.headers);

    await revokeApiKey(testDb.db, { partnerId: org.partner.id }, key.id);
    await eventually(async () => expect(announced).toContain(key.id), 2_000);
    await expect(authenticate(other.prisma, key.headers)).rejects.toThrow(INVALID_API_KEY);
  });

  it("caches nothing while the notification connection is down, and resumes when it is back", async () => {
    const key = await newPartnerKey();
    await authenticate(other.prisma, key.headers);
    await eventually(async () => expect(other.listenNotify.listening()).toBe(true));

    // Cut the listening connection (as a database restart or a network failure would).
    await testDb.db.$executeRaw`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
      WHERE datname = current_database() AND query LIKE 'LISTEN%'`;
    await eventually(async () => expect(other.listenNotify.listening()).toBe(false));
    await revokeSilently(key.id);
    // The entry cached before the cut is gone: the database is asked, and says revoked.
    await expect(authenticate(other.prisma, key.headers)).rejects.toThrow(INVALID_API_KEY);

    await eventually(async () => expect(other.listenNotify.listening()).toBe(true), 10_000);
    // Nothing cached before the gap is served after it (a revocation may have been missed).
    await expect(authenticate(other.prisma, key.headers)).rejects.toThrow(INVALID_API_KEY);
    const fresh = await newPartnerKey();
    await authenticate(other.prisma, fresh.headers);
    await revokeSilently(fresh.id);
    await expect(authenticate(other.prisma, fresh.headers)).resolves.toMatchObject({ apiKeyId: fresh.id });
  });
});

describe("VerifiedKeyCache", () => {
  const verified = (id: string) => ({ id, partnerId: "p", distributorId: null, partnerDistributorId: "d" });

  async function listeningCache(now: () => number) {
    const listenNotify = testDb.database.listenNotify;
    const cache = new VerifiedKeyCache(listenNotify, now);
    await cache.listen();
    await eventually(async () => expect(listenNotify.listening()).toBe(true));
    return cache;
  }

  it("drops an entry after the TTL", async () => {
    let clock = 1_000_000;
    const cache = await listeningCache(() => clock);
    cache.remember("hash", verified("k1"), cache.readStarted());
    expect(cache.get("hash")?.id).toBe("k1");
    clock += VERIFIED_KEY_TTL_MS - 1;
    expect(cache.get("hash")?.id).toBe("k1");
    clock += 1;
    expect(cache.get("hash")).toBeUndefined();
  });

  it("does not keep a database read that a revocation overtook", async () => {
    const cache = await listeningCache(Date.now);
    const readStartedAt = cache.readStarted();
    cache.forget("k2"); // a NOTIFY arriving while the read was in flight
    cache.remember("hash", verified("k2"), readStartedAt);
    expect(cache.get("hash")).toBeUndefined();
  });
});
