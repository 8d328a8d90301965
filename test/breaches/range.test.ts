import { createHash } from "node:crypto";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { issueApiKey } from "../../server/auth/api-keys";
import { importAccounts } from "../../server/breaches/exposure-index/accounts-import";
import { RANGE_ENTRIES } from "../../server/breaches/exposure-index/range";
import {
  emailSha1Prefix,
  fillRangePrefixes,
  indexRangePrefixes,
  INDEX_RANGE_PREFIXES_JOB,
  requestRangePrefixesOfExistingRows,
} from "../../server/breaches/exposure-index/range-prefixes";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { hibpBreach, seedExposures, writeTempFile } from "../helpers/breach-fixtures";
import { runJobsUntilIdle } from "../helpers/jobs";
import { restTestBed } from "../helpers/rest";

/**
 * breach/range (docs/breaches.md, "Look up addresses by hash prefix"): a caller sends the first 6
 * hex characters of its address's SHA-1 and finds the rest locally among exactly 64 entries.
 */
const { testDb, server } = restTestBed();
let org: TestOrg;

const RANGE = "/api/v1/integrations/breach/range";
const CHECK = "/api/v1/integrations/breach/check";
const INVALID = "Invalid route parameters: prefix must be the first 6 hexadecimal characters of the address's SHA-1";

const LISTED = ["Adobe", "Canva", "Dropbox", "Evite", "Fling", "Gawker"];
const sha1 = (email: string) => createHash("sha1").update(email).digest("hex").toUpperCase();

beforeAll(async () => {
  org = await createTestOrg(testDb.db, "Range");
  await seedExposures(
    testDb.db,
    [
      ...LISTED.map((name) => hibpBreach(name)),
      hibpBreach("Ashley", { IsSensitive: true }),
      hibpBreach("Malware2025", { IsStealerLog: true }),
      hibpBreach("Gone", { IsRetired: true }),
    ],
    {
      "alice@acme.example": ["Adobe", "Canva", "Ashley", "Malware2025", "Gone"],
      "bob@acme.example": ["Dropbox"],
      "secret@acme.example": ["Ashley"],
      "stolen@acme.example": ["Malware2025"],
    },
  );
});
afterEach(() => {
  vi.unstubAllEnvs();
});

async function keyHeaders() {
  const key = await issueApiKey(testDb.db, { partnerId: org.partner.id });
  return { "SW-PARTNER-ID": org.partner.id, "SW-API-KEY": key.apiKey };
}

async function range(prefix: string, headers?: Record<string, string>) {
  return server.api.get<{ success: boolean; entries: Array<{ suffix: string; breachNames: string[] }> }>(
    `${RANGE}/${prefix}`,
    headers ?? (await keyHeaders()),
  );
}

/** A prefix no seeded address has. */
function missPrefix(seed: string): string {
  const taken = new Set(["alice", "bob", "secret", "stolen"].map((name) => sha1(`${name}@acme.example`).slice(0, 6)));
  for (let i = 0; ; i++) {
    const prefix = sha1(`${seed}${i}`).slice(0, 6);
    if (!taken.has(prefix)) return prefix;
  }
}

function expectShape(entries: Array<{ suffix: string; breachNames: string[] }>) {
  expect(entries).toHaveLength(RANGE_ENTRIES);
  for (const entry of entries) {
    expect(entry.suffix).toMatch(/^[0-9A-F]{34}$/);
    expect(entry.breachNames.length).toBeGreaterThanOrEqual(1);
    expect(entry.breachNames.length).toBeLessThanOrEqual(3);
    for (const name of entry.breachNames) expect(LISTED).toContain(name);
  }
  const suffixes = entries.map((entry) => entry.suffix);
  expect(suffixes).toEqual([...suffixes].sort());
  expect(new Set(suffixes).size).toBe(RANGE_ENTRIES);
}

describe("GET /api/v1/integrations/breach/range/{prefix}", () => {
  it("finds an address among exactly 64 entries by its suffix, with its listed breaches only, and never a full hash", async () => {
    const hash = sha1("alice@acme.example");
    const res = await range(hash.slice(0, 6).toLowerCase());
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expectShape(res.body.entries);
    expect(res.body.entries.find((entry) => entry.suffix === hash.slice(6))).toEqual({
      suffix: hash.slice(6),
      breachNames: ["Adobe", "Canva"],
    });
    const text = JSON.stringify(res.body);
    expect(text).not.toContain(hash);
    expect(text).not.toContain("alice");
    expect(text).not.toMatch(/[0-9A-F]{40}/i);
    for (const hidden of ["Ashley", "Malware2025", "Gone"]) expect(text).not.toContain(hidden);
  });

  it("answers a miss as a hit: 64 entries, none of them the address's", async () => {
    const res = await range(missPrefix("miss"));
    expect(res.status).toBe(200);
    expectShape(res.body.entries);
  });

  it("never lists an address that is only in sensitive or stealer-log breaches", async () => {
    for (const email of ["secret@acme.example", "stolen@acme.example"]) {
      const hash = sha1(email);
      const res = await range(hash.slice(0, 6));
      expect(res.status).toBe(200);
      expectShape(res.body.entries);
      expect(res.body.entries.map((entry) => entry.suffix)).not.toContain(hash.slice(6));
    }
  });

  it("gives the same answer twice, and other decoys for another prefix", async () => {
    const prefix = missPrefix("same");
    const first = await range(prefix);
    const second = await range(prefix.toLowerCase());
    expect(second.body).toEqual(first.body);
    const other = await range(missPrefix("other"));
    const suffixes = new Set(first.body.entries.map((entry) => entry.suffix));
    expect(other.body.entries.filter((entry) => suffixes.has(entry.suffix))).toEqual([]);
    // The hit's decoys are the same with and without the real entry in the way.
    const hit = await range(sha1("bob@acme.example").slice(0, 6));
    expect((await range(sha1("bob@acme.example").slice(0, 6))).body).toEqual(hit.body);
  });

  it.each(["5BAA6", "5BAA61A", "5BAA6G", "5baa6-", "%205BAA61"])("refuses the prefix %j with 400", async (prefix) => {
    const res = await range(prefix);
    expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { success: false, error: INVALID } });
  });

  it("spends breach/check's budget: one path's calls exhaust the other's", async () => {
    vi.stubEnv("BREACH_CHECK_RATE_LIMIT", "2");
    const headers = await keyHeaders();
    const prefix = missPrefix("budget");
    const first = await range(prefix, headers);
    expect(first.status).toBe(200);
    expect(first.headers.get("ratelimit-policy")).toBe('"breach-check";q=2;w=60');
    expect(first.headers.get("ratelimit")).toMatch(/^"breach-check";r=1;t=\d+$/);
    expect((await server.api.post(CHECK, { email: "alice@acme.example" }, headers)).status).toBe(200);
    const limited = await range(prefix, headers);
    expect({ status: limited.status, body: limited.body }).toEqual({ status: 429, body: { success: false, error: "Too many requests" } });
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);

    const other = await keyHeaders();
    expect((await server.api.post(CHECK, { email: "alice@acme.example" }, other)).status).toBe(200);
    expect((await server.api.post(CHECK, { email: "alice@acme.example" }, other)).status).toBe(200);
    expect((await range(prefix, other)).status).toBe(429);
  });

  it("takes only a partner key", async () => {
    expect((await server.api.get(`${RANGE}/5BAA61`)).status).toBe(401);
  });

  it("keeps its decoys' breaches for 10 s, then follows the catalogue: a retired breach leaves the decoys", async () => {
    const prefix = missPrefix("retire");
    const names = (entries: Array<{ breachNames: string[] }>) => new Set(entries.flatMap((entry) => entry.breachNames));
    expect(names((await range(prefix)).body.entries)).toContain("Gawker");
    await testDb.db.breach.updateMany({ where: { name: "Gawker" }, data: { isRetired: true } });
    try {
      expect(names((await range(prefix)).body.entries)).toContain("Gawker"); // the ring of the last 10 s
      vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 10_001 });
      const later = (await range(prefix)).body.entries;
      expect(later).toHaveLength(RANGE_ENTRIES);
      expect(names(later)).not.toContain("Gawker");
    } finally {
      vi.useRealTimers();
      await testDb.db.breach.updateMany({ where: { name: "Gawker" }, data: { isRetired: false } });
    }
  });
});

describe("the hash prefixes of imported rows", () => {
  it("are filled by the job the import queues, so an address imported later is found", async () => {
    const file = await writeTempFile("accounts.csv", "email,breach_name\ncarol@late.example,Evite\ncarol@late.example,Ashley\n");
    expect((await importAccounts(testDb.db, file)).added).toBe(2);
    const hash = sha1("carol@late.example");
    const before = await range(hash.slice(0, 6));
    expect(before.body.entries.map((entry: { suffix: string }) => entry.suffix)).not.toContain(hash.slice(6));
    expect(await testDb.db.job.count({ where: { kind: INDEX_RANGE_PREFIXES_JOB, status: "pending" } })).toBe(1);

    await runJobsUntilIdle(testDb.db);
    const after = await range(hash.slice(0, 6));
    expectShape(after.body.entries);
    expect(after.body.entries.find((entry) => entry.suffix === hash.slice(6))).toEqual({ suffix: hash.slice(6), breachNames: ["Evite"] });
  });

  it("are filled batch by batch: a run stopped half way is simply run again, and a third run changes nothing", async () => {
    const emails = Array.from({ length: 3000 }, (_, i) => `user${i}@resume.example`);
    const file = await writeTempFile("many.csv", ["email,breach_name", ...emails.map((email) => `${email},Fling`)].join("\n"));
    await importAccounts(testDb.db, file);
    const importId = Number((await testDb.db.exposureImport.findFirstOrThrow({ orderBy: { id: "desc" } })).id);
    const missing = () => testDb.db.breachExposure.count({ where: { domain: "resume.example", emailSha1Prefix: null } });
    expect(await missing()).toBe(3000);

    const [pages] = await testDb.db.$queryRaw<Array<{ first: number; last: number }>>`
      SELECT ((min(ctid)::text::point)[0])::int AS first, ((max(ctid)::text::point)[0])::int AS last
      FROM breach_exposures WHERE import_id = ${importId}::bigint`;
    const { first, last } = pages!;
    expect(last - first).toBeGreaterThan(4); // rows over several pages, so batches of 2 pages stop half way
    let batches = 0;
    const half = await fillRangePrefixes(
      testDb.db,
      { fromPage: first, toPage: last + 1 },
      { batchPages: 2, stopAfter: () => ++batches >= 2 },
    );
    expect(half.nextPage).toBe(first + 4);
    expect(half.updated).toBeGreaterThan(0);
    expect(await missing()).toBe(3000 - half.updated);

    const rest = await indexRangePrefixes(testDb.db, { importId });
    expect(rest).toEqual({ updated: 3000 - half.updated });
    expect(await missing()).toBe(0);
    expect(await indexRangePrefixes(testDb.db, { importId })).toEqual({ updated: 0 });

    const rows = await testDb.db.breachExposure.findMany({
      where: { domain: "resume.example" },
      select: { email: true, emailSha1Prefix: true },
    });
    expect(rows.every((row) => row.emailSha1Prefix === emailSha1Prefix(row.email))).toBe(true);
    expect(emailSha1Prefix("user0@resume.example")).toBe(Number.parseInt(sha1("user0@resume.example").slice(0, 6), 16));
    await runJobsUntilIdle(testDb.db); // the import's own job finds nothing left
  });

  it("are filled for the rows a database held before the column (the start-up fill)", async () => {
    await testDb.db.$executeRaw`UPDATE breach_exposures SET email_sha1_prefix = NULL`;
    expect(await requestRangePrefixesOfExistingRows(testDb.db)).toBe(true);
    expect(await requestRangePrefixesOfExistingRows(testDb.db)).toBe(true); // a second start joins the queued job
    expect(await testDb.db.job.count({ where: { kind: INDEX_RANGE_PREFIXES_JOB, status: "pending" } })).toBe(1);
    await runJobsUntilIdle(testDb.db);
    expect(await testDb.db.breachExposure.count({ where: { emailSha1Prefix: null } })).toBe(0);
    const hash = sha1("alice@acme.example");
    const res = await range(hash.slice(0, 6));
    expect(res.body.entries.find((entry: { suffix: string }) => entry.suffix === hash.slice(6))?.breachNames).toEqual(["Adobe", "Canva"]);
  });
});
