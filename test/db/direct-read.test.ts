import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../server/db/client";
import { driverQueryOf, indexScanRows, readRows, registerDriverQuery } from "../../server/db/direct-read";
import { DRIVER_TARGETS, openDriverTarget } from "../helpers/db";

const LOOKUP = `SELECT q.email, q.n::int AS n FROM unnest($1::text[], $2::int[]) AS q(email, n) ORDER BY q.n`;

describe.each(DRIVER_TARGETS)("readRows on %s", (target) => {
  let opened: Awaited<ReturnType<typeof openDriverTarget>> | undefined;
  let db: Db;

  beforeAll(async () => {
    opened = await openDriverTarget(target);
    db = opened.db;
    await db.$executeRawUnsafe("CREATE TABLE direct_read_probe (email text NOT NULL)");
  });
  afterAll(async () => {
    await opened?.close();
  });

  it("binds array parameters and returns the driver's rows, the same as through Prisma", async () => {
    const params = [
      ["b@x.example", "a@y.example"],
      [2, 1],
    ];
    const direct = await readRows(db, LOOKUP, params);
    expect(direct).toEqual([
      { email: "a@y.example", n: 1 },
      { email: "b@x.example", n: 2 },
    ]);
    const throughPrisma = await db.$transaction((tx) => readRows(tx, LOOKUP, params));
    expect(throughPrisma).toEqual(direct);
  });

  it("reads inside a transaction what the transaction has written", async () => {
    const seen = await db.$transaction(async (tx) => {
      await tx.$executeRawUnsafe("INSERT INTO direct_read_probe (email) VALUES ('inside@x.example')");
      return readRows<{ email: string }>(tx, "SELECT email FROM direct_read_probe WHERE email = $1", ["inside@x.example"]);
    });
    expect(seen).toEqual([{ email: "inside@x.example" }]);
  });

  it("keeps a statement prepared under its name on PostgreSQL, and simply runs it elsewhere", async () => {
    const listing = "SELECT name FROM pg_prepared_statements WHERE name = $1";
    for (let call = 0; call < 3; call++) {
      const rows = await readRows<{ name: string }>(db, listing, ["direct-read-probe"], { preparedAs: "direct-read-probe" });
      expect(rows).toEqual(opened!.onPostgres ? [{ name: "direct-read-probe" }] : []);
    }
  });

  it("goes to the registered driver on the handle itself, never from a transaction", async () => {
    const driverQuery = driverQueryOf(db)!;
    expect(driverQuery).toBeDefined();
    const sent: string[] = [];
    registerDriverQuery(db, (sql, params) => {
      sent.push(sql);
      return driverQuery(sql, params);
    });
    try {
      expect(await readRows(db, LOOKUP, [["a@y.example"], [1]])).toEqual([{ email: "a@y.example", n: 1 }]);
      await db.$transaction((tx) => readRows(tx, "SELECT 1 AS one", []));
      expect(sent).toEqual([LOOKUP]);
    } finally {
      registerDriverQuery(db, driverQuery);
    }
  });
});

describe.each(DRIVER_TARGETS)("readRows with DIRECT_DRIVER_READS=false on %s", (target) => {
  let opened: Awaited<ReturnType<typeof openDriverTarget>> | undefined;

  beforeAll(async () => {
    opened = await openDriverTarget(target, { DIRECT_DRIVER_READS: "false" });
  });
  afterAll(async () => {
    await opened?.close();
  });

  it("goes through Prisma on the handle itself and returns the same rows", async () => {
    expect(driverQueryOf(opened!.db)).toBeUndefined();
    expect(
      await readRows(opened!.db, LOOKUP, [
        ["b@x.example", "a@y.example"],
        [2, 1],
      ]),
    ).toEqual([
      { email: "a@y.example", n: 1 },
      { email: "b@x.example", n: 2 },
    ]);
  });
});

describe.each(DRIVER_TARGETS)("indexScanRows on %s", (target) => {
  let opened: Awaited<ReturnType<typeof openDriverTarget>> | undefined;
  let db: Db;

  beforeAll(async () => {
    opened = await openDriverTarget(target);
    db = opened.db;
  });
  afterAll(async () => {
    await opened?.close();
  });

  const SETTINGS = `SELECT current_setting('enable_bitmapscan') AS bitmap, current_setting('enable_seqscan') AS seq,
                            current_setting('plan_cache_mode') AS plans, $1::int AS n`;

  it("runs the statement planned with bitmap and sequential scans off and one generic plan, prepared on PostgreSQL", async () => {
    for (let call = 1; call <= 3; call++) {
      expect(await indexScanRows(db, SETTINGS, [call], { preparedAs: "index-scan-probe" })).toEqual([
        { bitmap: "off", seq: "off", plans: "force_generic_plan", n: call },
      ]);
    }
    const prepared = await indexScanRows<{ n: number }>(db, "SELECT count(*)::int AS n FROM pg_prepared_statements WHERE name = $1", [
      "index-scan-probe",
    ]);
    expect(prepared[0]!.n).toBe(opened!.onPostgres ? 1 : 0);
  });

  it("leaves every other statement on the handle planned as usual", async () => {
    await indexScanRows(db, SETTINGS, [1]);
    expect(
      await readRows(db, "SELECT current_setting('enable_bitmapscan') AS bitmap, current_setting('enable_seqscan') AS seq", []),
    ).toEqual([{ bitmap: "on", seq: "on" }]);
  });
});
