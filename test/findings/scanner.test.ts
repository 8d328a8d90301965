import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { enqueueDailyScans } from "../../server/findings/jobs";
import { requestCustomerScan } from "../../server/customers/scan-requests";
import { scanAllActiveCustomers, scanCustomer } from "../../server/findings/scanner";
import { insertExposures } from "../../server/breaches/exposure-index/exposures";
import { runDueJobs } from "../../server/jobs/worker";
import { jobCatalogue } from "../../server/startup/job-catalogue";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { createBreachTestCustomer, hibpBreach, seedExposures } from "../helpers/breach-fixtures";

let testDb: TestDatabase;
let org: TestOrg;
let breachIds: Map<string, string>;

beforeAll(async () => {
  testDb = await createTestDatabase();
  org = await createTestOrg(testDb.db);
  breachIds = await seedExposures(
    testDb.db,
    [
      hibpBreach("Alpha", { BreachDate: "2024-03-01", DataClasses: ["Email addresses", "Passwords"] }),
      hibpBreach("Beta", { BreachDate: "2015-06-01", DataClasses: ["Email addresses", "Phone numbers"] }),
      hibpBreach("Gamma", { BreachDate: "2020-01-01", DataClasses: ["Email addresses"] }),
      hibpBreach("Retired", { IsRetired: true }),
    ],
    {
      "ceo@acme.example": ["Alpha", "Beta"],
      "cfo@acme.example": ["Alpha"],
      "intern@acme.example": ["Retired"],
      "bob@mail.example": ["Beta"],
      "someone@mail.example": ["Alpha"],
      "unrelated@other.example": ["Alpha"],
    },
  );
});
afterAll(async () => {
  await testDb?.close();
});

async function eventsOf(customerId: string) {
  return testDb.db.outboxEvent.findMany({ where: { customerId }, orderBy: { createdAt: "asc" } });
}

async function instancesOf(customerId: string) {
  const rows = await testDb.db.customerBreach.findMany({
    where: { customerId },
    include: { breach: true },
    orderBy: { breach: { name: "asc" } },
  });
  return rows.map((row) => ({ id: row.id, name: row.breach.name, emails: row.emails, resolved: row.resolved }));
}

describe("scanning a customer", () => {
  it("discovers addresses at monitored domains, records exact instances and announces them once", async () => {
    const customer = await createBreachTestCustomer(testDb.db, org.partner.id, {
      name: "Acme Ltd",
      domains: ["acme.example"],
      emails: ["bob@mail.example", "ceo@acme.example"],
    });
    const outcome = await scanCustomer(testDb.db, customer.id, "onboard");
    expect(outcome).toMatchObject({ scanned: true, discoveredEmails: 1, newBreaches: 2 });

    const instances = await instancesOf(customer.id);
    expect(instances.map(({ name, emails, resolved }) => ({ name, emails, resolved }))).toEqual([
      { name: "Alpha", emails: ["ceo@acme.example", "cfo@acme.example"], resolved: false },
      { name: "Beta", emails: ["bob@mail.example", "ceo@acme.example"], resolved: false },
    ]);

    const discovered = await testDb.db.monitoredAsset.findMany({ where: { customerId: customer.id, source: "discovered" } });
    expect(discovered.map((asset) => [asset.kind, asset.value, asset.domain])).toEqual([["email", "cfo@acme.example", "acme.example"]]);

    const events = await eventsOf(customer.id);
    expect(events.map((event) => event.type)).toEqual(["customer.asset.added", "customer.breach.found"]);
    const ref = { uuid: customer.id, name: "Acme Ltd", reference: customer.reference };
    expect(events[0]!.payload).toEqual({ customer: ref, assets: [{ uuid: discovered[0]!.id, type: "email", value: "cfo@acme.example" }] });
    expect(events[1]!.payload).toEqual({
      customer: ref,
      breaches: [
        { uuid: instances[0]!.id, name: "Alpha", emails: ["ceo@acme.example", "cfo@acme.example"] },
        { uuid: instances[1]!.id, name: "Beta", emails: ["bob@mail.example", "ceo@acme.example"] },
      ],
    });
    expect(events.every((event) => event.partnerId === org.partner.id)).toBe(true);

    const after = await testDb.db.customer.findUniqueOrThrow({ where: { id: customer.id } });
    expect(after.firstScannedAt).not.toBeNull();
    expect(after.lastScannedAt).not.toBeNull();
    expect(after.threatScore).toBe(outcome.scanned ? outcome.threatScore : -1);
    expect(after.threatScore).toBeGreaterThan(0);

    // A rescan finds the same: no duplicate instances, no new events.
    const rescan = await scanCustomer(testDb.db, customer.id, "daily");
    expect(rescan).toMatchObject({ scanned: true, discoveredEmails: 0, newBreaches: 0 });
    expect(await instancesOf(customer.id)).toEqual(instances);
    expect(await eventsOf(customer.id)).toHaveLength(2);

    // New exposures: a new address in a known breach joins its instance (same id, no alert);
    // a new breach of a known address is a new instance with its own event.
    await testDb.db.customerBreach.update({ where: { id: instances[0]!.id }, data: { resolved: true, resolvedAt: new Date() } });
    await insertExposures(testDb.db, [
      { email: "dan@acme.example", breachId: breachIds.get("Alpha")! },
      { email: "ceo@acme.example", breachId: breachIds.get("Gamma")! },
    ]);
    const third = await scanCustomer(testDb.db, customer.id, "daily");
    expect(third).toMatchObject({ scanned: true, discoveredEmails: 1, newBreaches: 1 });
    const latest = await instancesOf(customer.id);
    expect(latest).toEqual([
      { id: instances[0]!.id, name: "Alpha", emails: ["ceo@acme.example", "cfo@acme.example", "dan@acme.example"], resolved: true },
      instances[1],
      { id: expect.any(String), name: "Gamma", emails: ["ceo@acme.example"], resolved: false },
    ]);
    const newEvents = (await eventsOf(customer.id)).slice(2);
    expect(newEvents.map((event) => [event.type, event.payload])).toEqual([
      ["customer.asset.added", { customer: ref, assets: [{ uuid: expect.any(String), type: "email", value: "dan@acme.example" }] }],
      ["customer.breach.found", { customer: ref, breaches: [{ uuid: latest[2]!.id, name: "Gamma", emails: ["ceo@acme.example"] }] }],
    ]);
  });

  it("leaves retired breaches and other customers' exposures out", async () => {
    const customer = await createBreachTestCustomer(testDb.db, org.partner.id, { emails: ["intern@acme.example"] });
    expect(await scanCustomer(testDb.db, customer.id, "onboard")).toMatchObject({ scanned: true, newBreaches: 0, threatScore: 0 });
    expect(await instancesOf(customer.id)).toEqual([]);
    expect(await eventsOf(customer.id)).toEqual([]);
  });

  it("scans a prospect once, never daily, and again after the upgrade", async () => {
    const prospect = await createBreachTestCustomer(testDb.db, org.partner.id, { status: "prospect", emails: ["someone@mail.example"] });
    expect(await scanCustomer(testDb.db, prospect.id, "daily")).toEqual({
      customerId: prospect.id,
      scanned: false,
      skipped: "prospect-already-scanned",
    });
    expect(await scanCustomer(testDb.db, prospect.id, "onboard")).toMatchObject({ scanned: true, newBreaches: 1 });
    await insertExposures(testDb.db, [{ email: "someone@mail.example", breachId: breachIds.get("Gamma")! }]);
    expect(await scanCustomer(testDb.db, prospect.id, "assets")).toMatchObject({ scanned: false, skipped: "prospect-already-scanned" });
    expect(await scanCustomer(testDb.db, prospect.id, "daily")).toMatchObject({ scanned: false });
    expect((await instancesOf(prospect.id)).map((instance) => instance.name)).toEqual(["Alpha"]);

    await testDb.db.customer.update({ where: { id: prospect.id }, data: { status: "active" } });
    expect(await scanCustomer(testDb.db, prospect.id, "upgrade")).toMatchObject({ scanned: true, newBreaches: 1 });
    expect((await instancesOf(prospect.id)).map((instance) => instance.name)).toEqual(["Alpha", "Gamma"]);
  });

  it("does not scan inactive or dormant customers, nor unknown ones", async () => {
    for (const status of ["inactive", "dormant"] as const) {
      const customer = await createBreachTestCustomer(testDb.db, org.partner.id, { status, emails: ["ceo@acme.example"] });
      expect(await scanCustomer(testDb.db, customer.id, "manual")).toEqual({
        customerId: customer.id,
        scanned: false,
        skipped: "not-monitored",
      });
      expect(await instancesOf(customer.id)).toEqual([]);
    }
    const unknown = crypto.randomUUID();
    expect(await scanCustomer(testDb.db, unknown, "daily")).toEqual({ customerId: unknown, scanned: false, skipped: "not-found" });
  });
});

describe("scan jobs", () => {
  it("runs a requested scan through the job queue", async () => {
    const customer = await createBreachTestCustomer(testDb.db, org.partner.id, { emails: ["bob@mail.example"] });
    await testDb.db.$transaction(async (tx) => {
      await requestCustomerScan(tx, customer.id, "onboard");
      await requestCustomerScan(tx, customer.id, "assets");
    });
    expect(await testDb.db.job.count({ where: { kind: "breaches.scan-customer", status: "pending" } })).toBe(1);
    await runDueJobs(testDb.db, jobCatalogue);
    expect((await instancesOf(customer.id)).map((instance) => instance.name)).toEqual(["Beta"]);
    expect(await testDb.db.job.findFirst({ where: { kind: "breaches.scan-customer" }, orderBy: { createdAt: "desc" } })).toMatchObject({
      status: "succeeded",
    });
  });

  it("fans the daily scan out to one job per active customer only", async () => {
    await testDb.db.job.deleteMany();
    const active = await createBreachTestCustomer(testDb.db, org.partner.id, { emails: ["cfo@acme.example"] });
    const prospect = await createBreachTestCustomer(testDb.db, org.partner.id, { status: "prospect", emails: ["cfo@acme.example"] });
    await enqueueDailyScans(testDb.db);
    const jobs = await testDb.db.job.findMany({ where: { kind: "breaches.scan-customer" } });
    const queued = jobs.map((job) => (job.payload as { customerId: string }).customerId);
    const activeIds = (await testDb.db.customer.findMany({ where: { status: "active" }, select: { id: true } })).map((row) => row.id);
    expect(queued.sort()).toEqual(activeIds.sort());
    expect(queued).toContain(active.id);
    expect(queued).not.toContain(prospect.id);
    expect(jobs.every((job) => (job.payload as { reason: string }).reason === "daily")).toBe(true);
    // Queuing again while they wait adds nothing.
    await enqueueDailyScans(testDb.db);
    expect(await testDb.db.job.count({ where: { kind: "breaches.scan-customer" } })).toBe(jobs.length);
    while ((await runDueJobs(testDb.db, jobCatalogue)) > 0);
    expect((await instancesOf(active.id)).map((instance) => instance.name)).toEqual(["Alpha"]);
    expect(await instancesOf(prospect.id)).toEqual([]);
  });

  it("run-scans scans every active customer now", async () => {
    const before = await testDb.db.customer.count({ where: { status: "active" } });
    const totals = await scanAllActiveCustomers(testDb.db, { pageSize: 2 });
    expect(totals).toEqual({ scanned: before, skipped: 0, failed: 0 });
  });
});

describe("daily scan slot", () => {
  it("is claimed once per day", async () => {
    const { claimDailyScanSlot } = await import("../../server/findings/jobs");
    const day = new Date("2031-05-04T02:00:00Z");
    expect(await claimDailyScanSlot(testDb.db, day)).toBe("2031-05-04");
    expect(await claimDailyScanSlot(testDb.db, day)).toBeUndefined();
  });
});
