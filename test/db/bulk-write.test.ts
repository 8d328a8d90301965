import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { PrismaClient, type Db } from "../../server/db/client";
import { inBulkTransaction } from "../../server/db/bulk-write";
import { DRIVER_TARGETS, openDriverTarget } from "../helpers/db";

const COLUMNS = ["label", "id"] as const;

async function probeRows(db: Db): Promise<Array<{ label: string; id: string }>> {
  return db.$queryRawUnsafe("SELECT label, id::text AS id FROM bulk_write_probe ORDER BY label");
}

const MODES = [
  ["COPY", "true"],
  ["INSERTs (BULK_COPY=false)", "false"],
] as const;
const CASES = DRIVER_TARGETS.flatMap((target) => MODES.map(([mode, bulkCopy]) => [target, mode, bulkCopy] as const));

describe.each(CASES)("bulk transactions on %s through %s", (target, _mode, bulkCopy) => {
  let opened: Awaited<ReturnType<typeof openDriverTarget>> | undefined;
  let db: Db;

  beforeAll(async () => {
    opened = await openDriverTarget(target, { BULK_COPY: bulkCopy });
    db = opened.db;
    await db.$executeRawUnsafe("CREATE TABLE bulk_write_probe (label text NOT NULL, id uuid NOT NULL)");
  });
  afterAll(async () => {
    await opened?.close();
  });
  beforeEach(async () => {
    await db.$executeRawUnsafe("TRUNCATE bulk_write_probe");
  });

  it("copies rows in batches and runs statements in one transaction that commits", async () => {
    const batches = Array.from({ length: 40 }, (_, batch) =>
      Array.from(
        { length: 500 },
        (_, row) => `b${String(batch).padStart(2, "0")}-${String(row).padStart(3, "0")}\t${crypto.randomUUID()}\n`,
      ).join(""),
    );
    const moved = await inBulkTransaction(db, async (tx) => {
      const sink = tx.copyInto("bulk_write_probe", COLUMNS);
      for (const rows of batches) await sink.write(rows);
      await sink.end();
      return tx.execute("UPDATE bulk_write_probe SET label = 'x' || label WHERE label LIKE $1", ["b00-%"]);
    });
    expect(moved).toBe(500);
    const rows = await probeRows(db);
    expect(rows).toHaveLength(20_000);
    expect(rows.filter((row) => row.label.startsWith("xb00-"))).toHaveLength(500);
    expect(rows.find((row) => row.label === "b39-499")?.id).toBe(batches[39]!.trimEnd().split("\n").at(-1)!.split("\t")[1]);
  });

  it("plans a transaction's statements by index only when asked, for that transaction alone", async () => {
    const settings = (tx: { query<Row>(sql: string): Promise<Row[]> }) =>
      tx.query<{ bitmap: string; seq: string }>(
        "SELECT current_setting('enable_bitmapscan') AS bitmap, current_setting('enable_seqscan') AS seq",
      );
    expect(await inBulkTransaction(db, settings, { indexScans: true })).toEqual([{ bitmap: "off", seq: "off" }]);
    expect(await inBulkTransaction(db, settings)).toEqual([{ bitmap: "on", seq: "on" }]);
    // the settings do not outlive their transaction on the connection it ran on
    expect(await inBulkTransaction(db, settings)).toEqual([{ bitmap: "on", seq: "on" }]);
  });

  it("rolls everything back when the work fails with a copy still open, and the handle goes on working", async () => {
    await expect(
      inBulkTransaction(db, async (tx) => {
        await tx.execute("INSERT INTO bulk_write_probe (label, id) VALUES ('before', gen_random_uuid())");
        const sink = tx.copyInto("bulk_write_probe", COLUMNS);
        await sink.write(`during\t${crypto.randomUUID()}\n`);
        throw new Error("the file could not be read");
      }),
    ).rejects.toThrow("the file could not be read");
    expect(await probeRows(db)).toEqual([]);

    await inBulkTransaction(db, async (tx) => {
      const sink = tx.copyInto("bulk_write_probe", COLUMNS);
      await sink.write(`after\t${crypto.randomUUID()}\n`);
      await sink.end();
    });
    expect((await probeRows(db)).map((row) => row.label)).toEqual(["after"]);
  });

  it("reports rows the database refuses and stores none of the transaction", async () => {
    await expect(
      inBulkTransaction(db, async (tx) => {
        await tx.execute("INSERT INTO bulk_write_probe (label, id) VALUES ('before', gen_random_uuid())");
        const sink = tx.copyInto("bulk_write_probe", COLUMNS);
        await sink.write(`fine\t${crypto.randomUUID()}\nbroken\tnot-a-uuid\n`);
        await sink.end();
      }),
    ).rejects.toThrow(/invalid input syntax for type uuid: "not-a-uuid"/);
    expect(await probeRows(db)).toEqual([]);
  });
});

describe.each(DRIVER_TARGETS)("bulk transactions with BULK_COPY=false on %s", (target) => {
  let opened: Awaited<ReturnType<typeof openDriverTarget>> | undefined;

  beforeAll(async () => {
    opened = await openDriverTarget(target, { BULK_COPY: "false" });
    await opened.db.$executeRawUnsafe("CREATE TABLE bulk_write_escapes (label text NOT NULL, note text, n int)");
  });
  afterAll(async () => {
    await opened?.close();
  });

  it("reads COPY's text format: escapes decoded, \\N as null, typed by the table", async () => {
    await inBulkTransaction(opened!.db, async (tx) => {
      const sink = tx.copyInto("bulk_write_escapes", ["label", "note", "n"]);
      await sink.write("tab\\tback\\\\slash\t\\N\t7\nline\\nbreak\tnote\t\\N\n");
      await sink.end();
    });
    const rows = await opened!.db.$queryRawUnsafe("SELECT label, note, n FROM bulk_write_escapes ORDER BY label DESC");
    expect(rows).toEqual([
      { label: "tab\tback\\slash", note: null, n: 7 },
      { label: "line\nbreak", note: "note", n: null },
    ]);
  });

  it("refuses a row with the wrong number of columns and stores nothing", async () => {
    await expect(
      inBulkTransaction(opened!.db, async (tx) => {
        const sink = tx.copyInto("bulk_write_escapes", ["label", "note", "n"]);
        await sink.write("short\tnote\n");
      }),
    ).rejects.toThrow('a row for bulk_write_escapes has 2 columns, expected 3: "short\tnote"');
  });
});

describe("bulk transactions on a handle not opened by openDatabase", () => {
  it("are refused with the reason", () => {
    const stray = Object.create(PrismaClient.prototype) as Db;
    expect(() => inBulkTransaction(stray, async () => undefined)).toThrow(
      "bulk writes need a database handle opened by openDatabase (server/db/client.ts)",
    );
  });
});
