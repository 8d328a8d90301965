import { InngestTestEngine } from "@inngest/test";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createBreachScanFunctions, SCAN_REQUESTED_EVENT } from "../../inngest/breach-scans";
import { createInngestFunctions } from "../../inngest/functions";
import { localBreachSource } from "../../server/breaches/exposure-index/sources/local";
import { updateCustomerAssets } from "../../server/customers/assets";
import { requestCustomerScan, SCAN_CUSTOMER_JOB } from "../../server/customers/scan-requests";
import type { Db } from "../../server/db/client";
import { scanCustomerJob } from "../../server/findings/jobs";
import { createJobCatalogue } from "../../server/jobs/catalogue";
import { runDueJobs } from "../../server/jobs/worker";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { createBreachTestCustomer, hibpBreach, seedExposures } from "../helpers/breach-fixtures";

/**
 * Issue 48: an asset change made while the customer's scan runs is scanned, by one scan after
 * the running one (the scan job type's followUpWhileRunning, server/jobs/queue.ts).
 */
let testDb: TestDatabase;
let org: TestOrg;

const BURST = 50;
const burstAddresses = Array.from({ length: BURST }, (_, i) => `burst${i}@mail.example`);

beforeAll(async () => {
  testDb = await createTestDatabase();
  org = await createTestOrg(testDb.db);
  await seedExposures(testDb.db, [hibpBreach("Alpha"), hibpBreach("Beta"), hibpBreach("Gamma")], {
    "ceo@acme.example": ["Alpha"],
    "new@mail.example": ["Beta"],
    ...Object.fromEntries(burstAddresses.map((address) => [address, ["Gamma"]])),
  });
});
afterAll(async () => {
  await testDb?.close();
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** The service's scan job, and nothing else (no alert sends). */
const scansOnly = createJobCatalogue({ jobs: [scanCustomerJob], schedules: [] });

/** Both drivers: each runs the due scans until none is due and says how many ran. */
const drivers: Record<string, (db: Db) => Promise<number>> = {
  "the job worker": async (db) => {
    let ran = 0;
    for (let count; (count = await runDueJobs(db, scansOnly)) > 0;) ran += count;
    return ran;
  },
  "Inngest's drain-jobs": async (db) => {
    const [drainJobs] = createInngestFunctions(async () => db, scansOnly);
    const { result } = await new InngestTestEngine({ function: drainJobs! }).execute();
    return (result as { ran: number }).ran;
  },
};

/**
 * Holds the next scan at the point after it read the customer's assets (before it looks them up)
 * until `release()`: the real scanner and exposure index, only held.
 */
function holdNextScanAfterItReadTheAssets() {
  let reach!: () => void;
  const reached = new Promise<void>((resolve) => (reach = resolve));
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const lookUp = localBreachSource.exposuresAtDomains;
  vi.spyOn(localBreachSource, "exposuresAtDomains").mockImplementationOnce(async (db, domains) => {
    reach();
    await released;
    return lookUp(db, domains);
  });
  return { reached, release };
}

async function instancesOf(customerId: string) {
  const rows = await testDb.db.customerBreach.findMany({
    where: { customerId },
    include: { breach: true },
    orderBy: { breach: { name: "asc" } },
  });
  return rows.map((row) => ({ name: row.breach.name, emails: [...row.emails].sort() }));
}

/** The breach names each customer.breach.found event announced, in order. */
async function announcedBreaches(customerId: string) {
  const events = await testDb.db.outboxEvent.findMany({
    where: { customerId, type: "customer.breach.found" },
    orderBy: { createdAt: "asc" },
  });
  return events.map((event) => (event.payload as { breaches: Array<{ name: string }> }).breaches.map((breach) => breach.name));
}

async function scanJobsOf(customerId: string) {
  const jobs = await testDb.db.job.findMany({ where: { kind: SCAN_CUSTOMER_JOB }, orderBy: { createdAt: "asc" } });
  return jobs
    .filter((job) => (job.payload as { customerId: string }).customerId === customerId)
    .map((job) => ({ status: job.status, reason: (job.payload as { reason: string }).reason }));
}

describe.each(Object.keys(drivers))("a scan asked for while the customer's scan runs (%s)", (driver) => {
  it("is not dropped: an address added after the running scan read the assets is scanned by one scan after it", async () => {
    const customer = await createBreachTestCustomer(testDb.db, org.partner.id, { domains: ["acme.example"] });
    await testDb.db.$transaction((tx) => requestCustomerScan(tx, customer.id, "onboard"));
    const held = holdNextScanAfterItReadTheAssets();
    const scanning = drivers[driver]!(testDb.db);
    await held.reached;

    await updateCustomerAssets(testDb.db, org.partner.id, customer.id, { emails: ["new@mail.example"] });
    held.release();

    expect(await scanning).toBe(2);
    expect(await instancesOf(customer.id)).toEqual([
      { name: "Alpha", emails: ["ceo@acme.example"] },
      { name: "Beta", emails: ["new@mail.example"] },
    ]);
    expect(await announcedBreaches(customer.id)).toEqual([["Alpha"], ["Beta"]]);
    expect(await scanJobsOf(customer.id)).toEqual([
      { status: "succeeded", reason: "onboard" },
      { status: "succeeded", reason: "assets" },
    ]);
  });
});

describe("Inngest's daily scan of a customer (an event, not a job row)", () => {
  it("is never joined by a scan asked for while it runs: that one is a job of its own", async () => {
    const customer = await createBreachTestCustomer(testDb.db, org.partner.id, { domains: ["acme.example"] });
    const [, scanOneCustomer] = createBreachScanFunctions(async () => testDb.db);
    const held = holdNextScanAfterItReadTheAssets();
    const scanning = new InngestTestEngine({ function: scanOneCustomer }).execute({
      events: [{ name: SCAN_REQUESTED_EVENT, data: { customerId: customer.id, reason: "daily" } }],
    });
    await held.reached;

    await updateCustomerAssets(testDb.db, org.partner.id, customer.id, { emails: ["new@mail.example"] });
    held.release();
    expect((await scanning).result).toMatchObject({ scanned: true, newBreaches: 1 });

    expect(await drivers["Inngest's drain-jobs"]!(testDb.db)).toBe(1);
    expect(await instancesOf(customer.id)).toEqual([
      { name: "Alpha", emails: ["ceo@acme.example"] },
      { name: "Beta", emails: ["new@mail.example"] },
    ]);
    expect(await announcedBreaches(customer.id)).toEqual([["Alpha"], ["Beta"]]);
  });
});

describe("a burst of asset changes during one scan", () => {
  it(`leads to one more scan, not ${BURST}, which scans every address added`, async () => {
    const customer = await createBreachTestCustomer(testDb.db, org.partner.id, { domains: ["acme.example"] });
    await testDb.db.$transaction((tx) => requestCustomerScan(tx, customer.id, "onboard"));
    const held = holdNextScanAfterItReadTheAssets();
    const lookups = vi.mocked(localBreachSource.exposuresAtDomains);
    const scanning = drivers["the job worker"]!(testDb.db);
    await held.reached;

    for (let i = 1; i <= BURST; i++) {
      await updateCustomerAssets(testDb.db, org.partner.id, customer.id, { emails: burstAddresses.slice(0, i) });
    }
    held.release();

    expect(await scanning).toBe(2);
    expect(lookups).toHaveBeenCalledTimes(2);
    expect(await scanJobsOf(customer.id)).toEqual([
      { status: "succeeded", reason: "onboard" },
      { status: "succeeded", reason: "assets" },
    ]);
    expect(await instancesOf(customer.id)).toEqual([
      { name: "Alpha", emails: ["ceo@acme.example"] },
      { name: "Gamma", emails: [...burstAddresses].sort() },
    ]);
    expect(await announcedBreaches(customer.id)).toEqual([["Alpha"], ["Gamma"]]);
  });
});
