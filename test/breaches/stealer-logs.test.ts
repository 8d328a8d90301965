import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importStealerLogs, normalizeWebsiteDomain, StealerLogImportError } from "../../server/breaches/exposure-index/stealer-log-import";
import { MATCH_NEW_EXPOSURES_JOB } from "../../server/breaches/exposure-index/match-requests";
import { runImportStealerLogs } from "../../server/cli/import-stealer-logs";
import { customerDomain } from "../../server/domains/domains";
import { markDomainVerified } from "../../server/domains/verify";
import { runDueJobs } from "../../server/jobs/worker";
import { jobCatalogue } from "../../server/startup/job-catalogue";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { createBreachTestCustomer, hibpBreach, seedExposures, writeTempFile } from "../helpers/breach-fixtures";

let testDb: TestDatabase;
let trustedOrg: TestOrg;
let verifiedOrg: TestOrg;
let breachIds: Map<string, string>;

beforeAll(async () => {
  testDb = await createTestDatabase();
  trustedOrg = await createTestOrg(testDb.db, "Trusted", { domainPolicy: "trusted" });
  verifiedOrg = await createTestOrg(testDb.db, "Verified", { domainPolicy: "verified" });
  breachIds = await seedExposures(
    testDb.db,
    [
      hibpBreach("StealerOne", { IsStealerLog: true, IsMalware: true }),
      hibpBreach("PlainBreach"),
      hibpBreach("StealerTwo", { IsStealerLog: true }),
    ],
    {},
  );
});
afterAll(async () => {
  await testDb?.close();
});

const quiet = { write: () => true };

async function stealerRows(breachName: string) {
  const rows = await testDb.db.stealerLogExposure.findMany({
    where: { breachId: breachIds.get(breachName)! },
    orderBy: [{ email: "asc" }, { websiteDomain: "asc" }],
  });
  return rows.map((row) => [row.email, row.websiteDomain, row.capturedAt?.toISOString() ?? null]);
}

async function indexedAddresses(breachName: string) {
  const rows = await testDb.db.breachExposure.findMany({ where: { breachId: breachIds.get(breachName)! }, orderBy: { email: "asc" } });
  return rows.map((row) => row.email);
}

async function runMatchingJobs(): Promise<void> {
  for (let count = -1; count !== 0;) count = await runDueJobs(testDb.db, jobCatalogue, { kinds: [MATCH_NEW_EXPOSURES_JOB] });
}

describe("normalizeWebsiteDomain", () => {
  it("keeps the host of what a log names, lower-case and in ASCII", () => {
    expect(normalizeWebsiteDomain(" Accounts.Google.com ")).toBe("accounts.google.com");
    expect(normalizeWebsiteDomain("https://login.example.com:8443/path?x=1")).toBe("login.example.com");
    expect(normalizeWebsiteDomain("bücher.example.")).toBe("xn--bcher-kva.example");
    expect(normalizeWebsiteDomain("localhost")).toBe("localhost");
    expect(normalizeWebsiteDomain("")).toBeUndefined();
    expect(normalizeWebsiteDomain("two words.example")).toBeUndefined();
    expect(normalizeWebsiteDomain("user@host.example")).toBeUndefined();
  });
});

describe("import-stealer-logs", () => {
  it("stores each address with its websites and capture date, adds the addresses to the breach, and rejects bad lines", async () => {
    const file = await writeTempFile(
      "stealer.csv",
      [
        "email,website_domain,captured_at",
        "Jane@Acme.example,netflix.com,2025-03-01",
        "jane@acme.example,Spotify.com,2025-03-02T10:00:00Z",
        "jane@acme.example,netflix.com,2025-04-01", // the same capture again, later: the later date is kept
        "andy@acme.example,netflix.com,",
        '"bob@far.example","https://portal.far.example/login",2025-01-05 08:30',
        "not-an-address,netflix.com,2025-01-01",
        "carol@acme.example,,2025-01-01",
        "carol@acme.example,netflix.com,yesterday",
        "carol@acme.example,netflix.com,2025-01-01,extra",
        "",
      ].join("\r\n"),
    );
    const result = await runImportStealerLogs(testDb.db, { breachName: "stealerone", file }, quiet);
    expect(result).toEqual({ rows: 9, added: 4, addresses: 3, rejected: 4, resumedAtByte: 0 });
    expect(await stealerRows("StealerOne")).toEqual([
      ["andy@acme.example", "netflix.com", null],
      ["bob@far.example", "portal.far.example", "2025-01-05T08:30:00.000Z"],
      ["jane@acme.example", "netflix.com", "2025-04-01T00:00:00.000Z"],
      ["jane@acme.example", "spotify.com", "2025-03-02T10:00:00.000Z"],
    ]);
    expect(await indexedAddresses("StealerOne")).toEqual(["andy@acme.example", "bob@far.example", "jane@acme.example"]);

    // Again: nothing is added twice, and no matching is queued for nothing.
    await testDb.db.job.deleteMany();
    expect(await runImportStealerLogs(testDb.db, { breachName: "StealerOne", file }, quiet)).toMatchObject({ added: 0, addresses: 0 });
    expect(await testDb.db.job.count()).toBe(0);
  });

  it("lists rejected lines with their numbers, a value met again rejected again", async () => {
    const file = await writeTempFile(
      "bad.csv",
      [
        "email,website_domain,captured_at",
        "ok@acme.example,a.example",
        "bad,a.example",
        "ok@acme.example",
        "ok@acme.example,two words.example",
        "other@acme.example,two words.example",
        "ok@acme.example,a.example,yesterday",
        "other@acme.example,a.example,yesterday",
        "other@acme.example,A.example,2025-03-01",
        "",
      ].join("\n"),
    );
    const result = await importStealerLogs(testDb.db, { breachName: "StealerTwo", file });
    expect(result.rejected).toEqual([
      { line: 3, reason: 'invalid e-mail address "bad"' },
      { line: 4, reason: "expected 2 or 3 fields, found 1" },
      { line: 5, reason: 'invalid website domain "two words.example"' },
      { line: 6, reason: 'invalid website domain "two words.example"' },
      { line: 7, reason: 'invalid captured_at "yesterday" (an ISO 8601 date or date-time)' },
      { line: 8, reason: 'invalid captured_at "yesterday" (an ISO 8601 date or date-time)' },
    ]);
    expect(await stealerRows("StealerTwo")).toEqual([
      ["ok@acme.example", "a.example", null],
      ["other@acme.example", "a.example", "2025-03-01T00:00:00.000Z"],
    ]);
  });

  it("refuses a breach that is not a stealer-log breach, an unknown one, and a file without the header", async () => {
    const file = await writeTempFile("x.csv", "email,website_domain\na@acme.example,a.example\n");
    await expect(importStealerLogs(testDb.db, { breachName: "PlainBreach", file })).rejects.toThrow(
      'breach "PlainBreach" is not a stealer-log breach',
    );
    await expect(importStealerLogs(testDb.db, { breachName: "Nope", file })).rejects.toThrow('unknown breach "Nope"');
    const headerless = await writeTempFile("y.csv", "a@acme.example,a.example\n");
    await expect(importStealerLogs(testDb.db, { breachName: "StealerTwo", file: headerless })).rejects.toBeInstanceOf(
      StealerLogImportError,
    );
  });

  it("reads and checks the next chunk while the one before is merged", async () => {
    const lines = ["email,website_domain"];
    for (let i = 0; i < 6; i++) lines.push(`user${i}@overlap.example,site${i}.example`);
    const file = await writeTempFile("overlap.csv", lines.join("\n") + "\n");
    const seen: Array<{ rows: number; added: number }> = [];
    const result = await importStealerLogs(
      testDb.db,
      { breachName: "StealerTwo", file },
      { chunkRows: 2, onProgress: ({ rows, added }) => seen.push({ rows, added }) },
    );
    expect(result).toMatchObject({ rows: 6, added: 6 });
    // The second chunk is read before the first one's rows are committed (and counted as added).
    expect(seen.find((progress) => progress.rows === 4)).toEqual({ rows: 4, added: 0 });
    expect(seen.find((progress) => progress.rows === 6)).toEqual({ rows: 6, added: 2 });
  });

  it("commits a chunk at a time and resumes a run that stopped after the last committed chunk", async () => {
    const lines = ["email,website_domain"];
    for (let i = 0; i < 10; i++) lines.push(`user${i}@resume.example,site${i}.example`);
    const file = await writeTempFile("resume.csv", lines.join("\n") + "\n");
    let chunksSeen = 0;
    // The run stops while reading its third chunk: the first two (4 rows) are committed.
    await expect(
      importStealerLogs(
        testDb.db,
        { breachName: "StealerTwo", file },
        {
          chunkRows: 2,
          onProgress: (progress) => {
            chunksSeen++;
            if (progress.rows > 4) throw new Error("the process stopped");
          },
        },
      ),
    ).rejects.toThrow("the process stopped");
    expect(chunksSeen).toBeGreaterThan(0);
    const committed = (await stealerRows("StealerTwo")).filter(([email]) => String(email).endsWith("@resume.example"));
    expect(committed).toHaveLength(4);

    const resumed = await importStealerLogs(testDb.db, { breachName: "StealerTwo", file }, { chunkRows: 2 });
    expect(resumed.resumedAtByte).toBeGreaterThan(0);
    expect(resumed.rows).toBe(6);
    expect(resumed.added).toBe(6);
    const all = (await stealerRows("StealerTwo")).filter(([email]) => String(email).endsWith("@resume.example"));
    expect(all.map(([email]) => email)).toEqual(Array.from({ length: 10 }, (_, i) => `user${i}@resume.example`).sort());
    const run = await testDb.db.stealerLogImport.findFirstOrThrow({ where: { id: BigInt(resumed.importId) } });
    expect(run.completedAt).not.toBeNull();
    expect(run.linesDone).toBe(11n);

    // A finished run is not resumed: the next run reads the file from the start and adds nothing.
    const again = await importStealerLogs(testDb.db, { breachName: "StealerTwo", file }, { chunkRows: 2 });
    expect(again).toMatchObject({ resumedAtByte: 0, rows: 10, added: 0 });
  });
});

describe("incremental matching of a stealer-log import", () => {
  it("reaches monitored customers, only for addresses at a domain verified for them, under both policies", async () => {
    const trusted = await createBreachTestCustomer(testDb.db, trustedOrg.partner.id, { domains: ["match-t.example"] });
    const verified = await createBreachTestCustomer(testDb.db, verifiedOrg.partner.id, { domains: ["match-v.example"] });
    const byAddress = await createBreachTestCustomer(testDb.db, trustedOrg.partner.id, { emails: ["solo@match-s.example"] });
    const file = await writeTempFile(
      "match.csv",
      [
        "email,website_domain",
        "ceo@match-t.example,bank.example",
        "ceo@match-v.example,bank.example",
        "solo@match-s.example,shop.example",
      ].join("\n"),
    );
    await importStealerLogs(testDb.db, { breachName: "StealerOne", file });
    await runMatchingJobs();
    const instances = async (customerId: string) =>
      (await testDb.db.customerBreach.findMany({ where: { customerId } })).map((row) => [row.breachId, row.emails]);
    // Nothing is shown before the domain is verified, not even under the trusted policy.
    for (const customer of [trusted, verified, byAddress]) expect(await instances(customer.id)).toEqual([]);
    expect(await testDb.db.withheldExposure.count({ where: { customerId: { in: [trusted.id, verified.id, byAddress.id] } } })).toBe(3);

    for (const [customer, domain] of [
      [trusted, "match-t.example"],
      [verified, "match-v.example"],
    ] as const) {
      const row = await customerDomain(testDb.db, customer.id, domain);
      await markDomainVerified(testDb.db, row.id, { method: "staff", by: "Test staff" });
      expect(await instances(customer.id)).toEqual([[breachIds.get("StealerOne"), [`ceo@${domain}`]]]);
    }
  });
});
