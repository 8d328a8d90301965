import { InngestTestEngine } from "@inngest/test";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createBreachScanFunctions, SCAN_REQUESTED_EVENT } from "../../inngest/breach-scans";
import { createInngestFunctions } from "../../inngest/functions";
import { jobCatalogue } from "../../server/startup/job-catalogue";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTestOrg } from "../helpers/fixtures";
import { createBreachTestCustomer, hibpBreach, seedExposures } from "../helpers/breach-fixtures";
import { quietly } from "../helpers/jobs";

let testDb: TestDatabase;
let functions: ReturnType<typeof createBreachScanFunctions>;
let customers: { active: string[]; exposed: string; prospect: string };

beforeAll(async () => {
  testDb = await createTestDatabase();
  functions = createBreachScanFunctions(async () => testDb.db);
  const org = await createTestOrg(testDb.db);
  await seedExposures(testDb.db, [hibpBreach("Alpha")], { "ceo@acme.example": ["Alpha"] });
  const a = await createBreachTestCustomer(testDb.db, org.partner.id, { domains: ["acme.example"] });
  const b = await createBreachTestCustomer(testDb.db, org.partner.id, { emails: ["x@clean.example"] });
  const p = await createBreachTestCustomer(testDb.db, org.partner.id, { status: "prospect", emails: ["ceo@acme.example"] });
  customers = { active: [a.id, b.id].sort(), exposed: a.id, prospect: p.id };
});
afterAll(async () => {
  await testDb?.close();
});

describe("Inngest breach scan functions", () => {
  it("are served instead of the generic schedule function for the daily scan", () => {
    const ids = createInngestFunctions(async () => testDb.db, jobCatalogue).map((fn) => fn.id());
    expect(ids).toEqual(expect.arrayContaining(["breaches-daily-scan", "breaches-scan-customer"]));
    expect(ids).not.toContain("schedule-daily-scan");
    expect(ids).toContain("schedule-housekeeping");
  });

  it("fans the daily scan out to one event per active customer, once per day", async () => {
    // Sending events is Inngest's part: the step is replaced, the events it was given are checked.
    const steps = [{ id: "request-scans-0", handler: () => ({ ids: [] }) }];
    const { result, ctx } = await new InngestTestEngine({ function: functions[0], steps }).execute();
    expect(result).toEqual({ slot: new Date().toISOString().slice(0, 10), requested: 2 });
    if (!result || typeof result !== "object" || !("slot" in result)) throw new Error("no result");
    const sent = (
      ctx.step.sendEvent as unknown as {
        mock: { calls: Array<[string, Array<{ name: string; data: { customerId: string; reason: string } }>]> };
      }
    ).mock.calls;
    expect(sent).toHaveLength(1);
    expect(sent[0]![1].map((event) => event.data.customerId).sort()).toEqual(customers.active);
    expect(sent[0]![1].every((event) => event.name === SCAN_REQUESTED_EVENT && event.data.reason === "daily")).toBe(true);

    expect(await testDb.db.scheduledRun.findMany({ where: { name: "daily-scan" }, select: { slot: true } })).toEqual([
      { slot: result.slot },
    ]);
    // A day whose slot is taken (by another run, or the in-process schedule) sends nothing.
    const taken = await new InngestTestEngine({ function: functions[0], steps: [{ id: "claim-slot", handler: () => null }] }).execute();
    expect(taken.result).toEqual({ slot: null, requested: 0 });
    expect(taken.ctx.step.sendEvent).not.toHaveBeenCalled();
  });

  it("scans one customer per event, under a concurrency limit", async () => {
    expect((functions[1] as unknown as { opts: { concurrency: unknown } }).opts.concurrency).toEqual({ limit: 8 });
    const run = (customerId: string) =>
      new InngestTestEngine({ function: functions[1] }).execute({
        events: [{ name: SCAN_REQUESTED_EVENT, data: { customerId, reason: "daily" } }],
      });
    const { result } = await run(customers.exposed);
    expect(result).toMatchObject({ customerId: customers.exposed, scanned: true, newBreaches: 1 });
    expect(await testDb.db.customerBreach.count({ where: { customerId: customers.exposed } })).toBe(1);
    const prospect = await run(customers.prospect);
    expect(prospect.result).toEqual({ customerId: customers.prospect, scanned: false, skipped: "prospect-already-scanned" });
  });

  it("refuses an event whose data the scan job type's schema refuses, without retries and without scanning", async () => {
    const before = await testDb.db.customer.findUniqueOrThrow({ where: { id: customers.exposed }, select: { lastScannedAt: true } });
    // Inngest's own logger reports the failed run on the console.
    const consoleError = vi.spyOn(console, "error").mockImplementation(() => undefined);
    for (const data of [{ customerId: customers.exposed, reason: "whenever" }, { customerId: "nope", reason: "daily" }, {}]) {
      const { error, ctx } = await quietly(() =>
        new InngestTestEngine({ function: functions[1] }).execute({ events: [{ name: SCAN_REQUESTED_EVENT, data }] }),
      );
      expect(error).toMatchObject({
        name: "NonRetriableError",
        message: expect.stringMatching(/^malformed breaches\.scan-customer payload/),
      });
      expect(ctx.step.run).not.toHaveBeenCalled();
    }
    consoleError.mockRestore();
    const after = await testDb.db.customer.findUniqueOrThrow({ where: { id: customers.exposed }, select: { lastScannedAt: true } });
    expect(after).toEqual(before);
  });
});
