import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importAccounts, indexSortsAsciiByByte, parseCsvLine } from "../../server/breaches/exposure-index/accounts-import";
import { importCatalogue } from "../../server/breaches/catalogue/catalogue";
import { exposuresAtDomains, exposuresOfEmails } from "../../server/breaches/exposure-index/exposures";
import { runImportBreaches } from "../../server/cli/import-breaches";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { hibpBreach, writeTempFile } from "../helpers/breach-fixtures";

let testDb: TestDatabase;
beforeAll(async () => {
  testDb = await createTestDatabase();
});
afterAll(async () => {
  await testDb?.close();
});

const BUNDLED_CATALOGUE = path.join(process.cwd(), "data", "hibp-breaches.json");

async function waitUntil(condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("the condition did not become true in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function collector(isTTY = false) {
  let text = "";
  return { isTTY, write: (chunk: string) => (text += chunk), text: () => text };
}

describe("breach categories", () => {
  it("are seeded for every bundled data class, with the special categories blacklisted", async () => {
    const dataClasses = JSON.parse(readFileSync(path.join(process.cwd(), "data", "hibp-dataclasses.json"), "utf8")) as string[];
    const categories = await testDb.db.breachCategory.findMany();
    expect(categories.map((category) => category.name).sort()).toEqual([...dataClasses].sort());
    const blacklisted = categories.filter((category) => category.isBlacklist).map((category) => category.name);
    expect(blacklisted).toEqual(expect.arrayContaining(["Sexual orientations", "HIV statuses", "Religions", "Ethnicities"]));
    expect(blacklisted).not.toContain("Passwords");
    const passwords = categories.find((category) => category.name === "Passwords")!;
    expect(passwords).toMatchObject({ group: "credentials", link: "/kb/breach-categories/passwords", isBlacklist: false });
    expect(passwords.description).toMatch(/^Passwords exposed in a breach\./);
  });
});

describe("catalogue import", () => {
  it("imports the bundled HIBP catalogue once, however often it runs", async () => {
    const catalogue = JSON.parse(readFileSync(BUNDLED_CATALOGUE, "utf8")) as unknown[];
    const first = await importCatalogue(testDb.db, catalogue);
    expect(first).toEqual({ imported: 920, rejected: [] });
    const ids = await testDb.db.breach.findMany({ select: { id: true, name: true }, orderBy: { name: "asc" } });
    const second = await importCatalogue(testDb.db, catalogue);
    expect(second.imported).toBe(920);
    expect(await testDb.db.breach.findMany({ select: { id: true, name: true }, orderBy: { name: "asc" } })).toEqual(ids);

    const adobe = await testDb.db.breach.findUniqueOrThrow({ where: { name: "Adobe" } });
    expect(adobe).toMatchObject({ title: "Adobe", domain: "adobe.com", isVerified: true });
    expect(adobe.breachDate.toISOString()).toBe("2013-10-04T00:00:00.000Z");
    expect(adobe.dataClasses).toEqual(["Email addresses", "Password hints", "Passwords", "Usernames"]);
    expect(adobe.descriptionHtml).toContain("<a href=");
    expect(adobe.descriptionText).not.toMatch(/[<>]/);
    expect(adobe.descriptionText).toContain("In October 2013, 153 million Adobe accounts were breached");
  });

  it("makes descriptions plain text: tags dropped, link text kept, entities decoded", async () => {
    await importCatalogue(testDb.db, [
      hibpBreach("Entities", {
        Description: 'A <em>big</em> <a href="https://x.example">leak</a> &amp; more &lt;script&gt;alert(1)&lt;/script&gt;',
      }),
    ]);
    const breach = await testDb.db.breach.findUniqueOrThrow({ where: { name: "Entities" } });
    expect(breach.descriptionText).toBe("A big leak & more <script>alert(1)</script>");
  });

  it("rejects malformed records with their position and imports the rest", async () => {
    const result = await importCatalogue(testDb.db, [
      hibpBreach("GoodOne"),
      { ...hibpBreach("NoDate"), BreachDate: "yesterday" },
      hibpBreach("GoodTwo", { DataClasses: ["Email addresses", "Telepathic impressions"] }),
      { Title: "nameless" },
      hibpBreach("goodone"),
    ]);
    expect(result.imported).toBe(2);
    expect(result.rejected).toEqual([
      { record: 2, name: "NoDate", reason: expect.stringMatching(/^BreachDate: /) },
      { record: 4, name: undefined, reason: expect.stringMatching(/^Name: /) },
      { record: 5, name: "goodone", reason: "Name: duplicate of an earlier record named goodone" },
    ]);
    expect(await testDb.db.breach.count({ where: { name: { in: ["GoodOne", "GoodTwo", "NoDate"] } } })).toBe(2);
    // A data class the seed did not know becomes a category of the "other" group.
    expect(await testDb.db.breachCategory.findUnique({ where: { name: "Telepathic impressions" } })).toMatchObject({
      group: "other",
      isBlacklist: false,
    });
  });

  it("refuses a catalogue that is not an array", async () => {
    await expect(importCatalogue(testDb.db, { Name: "x" })).rejects.toThrow("the catalogue must be a JSON array of breaches");
  });
});

describe("accounts import", () => {
  const csv = [
    "email,breach_name",
    "Alice@Acme.example,GoodOne",
    "bob@acme.example,goodtwo",
    "",
    "not-an-address,GoodOne",
    "carol@acme.example,NoSuchBreach",
    "dave@acme.example,GoodOne,extra",
    '"eve@acme.example","GoodOne"',
    '"frank@acme.example,GoodOne',
    "alice@acme.example,GoodOne",
    "grace@other.example,GoodTwo",
  ].join("\n");

  it("imports the valid lines, rejects the others with their line numbers, and adds nothing on a re-import", async () => {
    const file = await writeTempFile("accounts.csv", csv);
    const first = await importAccounts(testDb.db, file);
    expect(first).toEqual({
      rows: 9,
      added: 4,
      rejectedCount: 4,
      rejected: [
        { line: 5, reason: 'invalid e-mail address "not-an-address"' },
        { line: 6, reason: 'unknown breach "NoSuchBreach"' },
        { line: 7, reason: "expected 2 fields, found 3" },
        { line: 9, reason: "unbalanced quotes" },
      ],
    });
    const again = await importAccounts(testDb.db, file);
    expect(again.added).toBe(0);
    expect(await testDb.db.breachExposure.count({ where: { domain: { in: ["acme.example", "other.example"] } } })).toBe(4);

    const ids = new Map((await testDb.db.breach.findMany({ where: { name: { in: ["GoodOne", "GoodTwo"] } } })).map((b) => [b.name, b.id]));
    expect(
      new Set((await exposuresOfEmails(testDb.db, ["alice@acme.example", "grace@other.example"])).map((e) => `${e.email} ${e.breachId}`)),
    ).toEqual(new Set([`alice@acme.example ${ids.get("GoodOne")}`, `grace@other.example ${ids.get("GoodTwo")}`]));
    expect((await exposuresAtDomains(testDb.db, ["acme.example"])).map((e) => e.email).sort()).toEqual([
      "alice@acme.example",
      "bob@acme.example",
      "eve@acme.example",
    ]);
  });

  it("stages a file of several batches: a row repeated across batches or already indexed is added once", async () => {
    await importCatalogue(testDb.db, [hibpBreach("BulkOne"), hibpBreach("BulkTwo")]);
    const line = (i: number) => `u${i}@bulk${i % 50}.example,${i % 2 === 0 ? "BulkOne" : "bulktwo"}`;
    const alreadyIndexed = await importAccounts(testDb.db, await writeTempFile("one.csv", `email,breach_name\n${line(0)}\n`));
    expect(alreadyIndexed.added).toBe(1);

    const lines = Array.from({ length: 25_000 }, (_, i) => line(i));
    const repeated = lines.slice(0, 1_000);
    const file = await writeTempFile("many.csv", ["email,breach_name", ...lines, ...repeated].join("\r\n"));
    const result = await importAccounts(testDb.db, file);
    expect(result).toEqual({ rows: 26_000, added: 24_999, rejectedCount: 0, rejected: [] });
    const stored = await testDb.db.breachExposure.count({ where: { domain: { endsWith: ".example", startsWith: "bulk" } } });
    expect(stored).toBe(25_000);
    const bulkTwo = await testDb.db.breach.findUniqueOrThrow({ where: { name: "BulkTwo" } });
    expect(await exposuresOfEmails(testDb.db, ["u24999@bulk49.example"])).toEqual([
      { email: "u24999@bulk49.example", breachId: bulkTwo.id, sensitive: false },
    ]);
  });

  it.runIf(Boolean(process.env.TEST_DATABASE_URL))(
    "waits for another writer of the index, then leaves out what that writer committed",
    async () => {
      await importCatalogue(testDb.db, [hibpBreach("RaceOne")]);
      const raceOne = await testDb.db.breach.findUniqueOrThrow({ where: { name: "RaceOne" } });
      const writer = new pg.Client({ connectionString: testDb.url });
      await writer.connect();
      try {
        await writer.query("BEGIN");
        await writer.query("INSERT INTO breach_exposures (domain, email, breach_id) VALUES ('race.example', 'first@race.example', $1)", [
          raceOne.id,
        ]);
        const file = await writeTempFile("race.csv", "email,breach_name\nfirst@race.example,RaceOne\nsecond@race.example,RaceOne\n");
        const importing = importAccounts(testDb.db, file);
        await waitUntil(async () => {
          const waiting = await writer.query("SELECT 1 FROM pg_locks WHERE relation = 'breach_exposures'::regclass AND NOT granted");
          return waiting.rowCount === 1;
        });
        await writer.query("COMMIT");
        expect((await importing).added).toBe(1);
      } finally {
        await writer.end();
      }
      expect((await exposuresAtDomains(testDb.db, ["race.example"])).map((exposure) => exposure.email).sort()).toEqual([
        "first@race.example",
        "second@race.example",
      ]);
    },
  );

  it.runIf(Boolean(process.env.TEST_DATABASE_URL))(
    "sorts by bytes only under a collation that orders ASCII that way, and imports under any collation",
    async () => {
      const setCollation = (collation: string) =>
        testDb.db.$executeRawUnsafe(
          `ALTER TABLE breach_exposures ALTER COLUMN domain TYPE text COLLATE ${collation}, ALTER COLUMN email TYPE text COLLATE ${collation}`,
        );
      await importCatalogue(testDb.db, [hibpBreach("Collated")]);
      try {
        await setCollation('"C"');
        expect(await indexSortsAsciiByByte(testDb.db)).toBe(true);
        await setCollation('"POSIX"');
        expect(await indexSortsAsciiByByte(testDb.db)).toBe(true);
        // ICU's en-US ignores the hyphen at first: "ab" sorts before "a-c", bytes say the opposite.
        await setCollation('"en-US-x-icu"');
        expect(await indexSortsAsciiByByte(testDb.db)).toBe(false);
        const file = await writeTempFile(
          "collated.csv",
          "email,breach_name\nab@collated.example,Collated\na-c@collated.example,Collated\nab@collated.example,Collated\n",
        );
        expect((await importAccounts(testDb.db, file)).added).toBe(2);
        expect((await importAccounts(testDb.db, file)).added).toBe(0);
        expect((await exposuresAtDomains(testDb.db, ["collated.example"])).map((exposure) => exposure.email).sort()).toEqual([
          "a-c@collated.example",
          "ab@collated.example",
        ]);
      } finally {
        await setCollation('"default"');
      }
    },
  );

  it("refuses a file without the header", async () => {
    const file = await writeTempFile("no-header.csv", "alice@acme.example,GoodOne\n");
    await expect(importAccounts(testDb.db, file)).rejects.toThrow(
      'line 1: the accounts file must start with the header "email,breach_name"',
    );
  });

  it("parses quoted CSV fields", () => {
    expect(parseCsvLine('"a@b.example","Name, with ""quotes"""')).toEqual(["a@b.example", 'Name, with "quotes"']);
    expect(parseCsvLine("a@b.example,Plain")).toEqual(["a@b.example", "Plain"]);
    expect(parseCsvLine('"open')).toBeUndefined();
  });
});

describe("import-breaches command", () => {
  it("writes a summary line when not on a terminal and lists rejected lines", async () => {
    const catalogue = await writeTempFile("catalogue.json", JSON.stringify([hibpBreach("CmdBreach"), { Name: "Broken" }]));
    const accounts = await writeTempFile("accounts.csv", "email,breach_name\nx@cmd.example,CmdBreach\ny@cmd.example,Nope\n");
    const report = collector(false);
    const result = await runImportBreaches(testDb.db, { catalogueFile: catalogue, accountsFile: accounts }, report);
    expect(result).toEqual({ breaches: 1, accounts: 1 });
    expect(report.text()).not.toContain("\r");
    expect(report.text()).toContain("catalogue record 2 (Broken) rejected: Title: ");
    expect(report.text()).toContain('accounts line 3 rejected: unknown breach "Nope"');
    expect(report.text()).toMatch(
      /import-breaches: 1 breaches \(1 rejected\); 2 account rows read, 1 added, 1 rejected; [\d.]+ s, [\d,]+ rows\/s\n$/,
    );
  });

  it("draws a progress bar on a terminal", async () => {
    const catalogue = await writeTempFile("catalogue.json", JSON.stringify([hibpBreach("CmdBreach")]));
    const accounts = await writeTempFile("accounts.csv", "email,breach_name\nz@cmd.example,CmdBreach\n");
    const report = collector(true);
    await runImportBreaches(testDb.db, { catalogueFile: catalogue, accountsFile: accounts }, report);
    expect(report.text()).toMatch(
      /\r\[#{30}\] 100% 1 rows read, 0 rejected, [\d,]+ rows\/s\nmerging 1 rows into the exposure index \.\.\.(\r[^\n]*)?\n/,
    );
  });

  it.runIf(Boolean(process.env.TEST_DATABASE_URL))(
    "counts the seconds of a merge that takes a while (here, waiting for another writer)",
    async () => {
      const catalogue = await writeTempFile("catalogue.json", JSON.stringify([hibpBreach("CmdBreach")]));
      const accounts = await writeTempFile("accounts.csv", "email,breach_name\nslow@cmd.example,CmdBreach\n");
      const writer = new pg.Client({ connectionString: testDb.url });
      await writer.connect();
      try {
        await writer.query("BEGIN");
        await writer.query("DELETE FROM breach_exposures WHERE domain = 'nothing.example'");
        const report = collector(true);
        const importing = runImportBreaches(testDb.db, { catalogueFile: catalogue, accountsFile: accounts }, report);
        await waitUntil(async () => report.text().includes(" 1 s"), 5_000);
        await writer.query("COMMIT");
        await importing;
        expect(report.text()).toMatch(/\nmerging 1 rows into the exposure index \.\.\.\rmerging 1 rows into the exposure index \.\.\. 1 s/);
        expect(report.text()).toMatch(/\nimport-breaches: 1 breaches \(0 rejected\); 1 account rows read, 1 added, 0 rejected; /);
      } finally {
        await writer.end();
      }
    },
  );

  it("runs as the admin CLI: one JSON object on stdout, the summary on stderr", async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), "admin-import-"));
    try {
      const accounts = await writeTempFile(
        "accounts.csv",
        "email,breach_name\nceo@cli.example,Adobe\nceo@cli.example,LinkedIn\nbad,Adobe\n",
      );
      const run = () =>
        spawnSync(
          process.execPath,
          [
            path.join("node_modules", "tsx", "dist", "cli.mjs"),
            "scripts/admin.ts",
            "import-breaches",
            "--catalogue",
            BUNDLED_CATALOGUE,
            "--accounts",
            accounts,
          ],
          {
            env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "" },
            encoding: "utf8",
          },
        );
      const first = run();
      expect(first.status, first.stderr).toBe(0);
      expect(JSON.parse(first.stdout)).toEqual({ breaches: 920, accounts: 2 });
      expect(first.stderr).toContain("accounts line 4 rejected: invalid e-mail address");
      const second = run();
      expect(JSON.parse(second.stdout)).toEqual({ breaches: 920, accounts: 0 });
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
