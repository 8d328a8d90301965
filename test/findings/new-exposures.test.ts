import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importAccounts } from "../../server/breaches/exposure-index/accounts-import";
import { importCatalogue } from "../../server/breaches/catalogue/catalogue";
import { insertExposures } from "../../server/breaches/exposure-index/exposures";
import { matchNewExposuresJob } from "../../server/findings/jobs";
import { MATCH_NEW_EXPOSURES_JOB, requestBreachMatching } from "../../server/breaches/exposure-index/match-requests";
import { INDEX_RANGE_PREFIXES_JOB } from "../../server/breaches/exposure-index/range-prefixes";
import { matchBreachesForActiveCustomers, matchPendingImports } from "../../server/findings/new-exposures";
import { claimDueJobs, completeJob } from "../../server/jobs/queue";
import { SCAN_CUSTOMER_JOB } from "../../server/customers/scan-requests";
import { scanCustomer } from "../../server/findings/scanner";
import { runImportBreaches } from "../../server/cli/import-breaches";
import { runDueJobs } from "../../server/jobs/worker";
import { jobCatalogue } from "../../server/startup/job-catalogue";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { createBreachTestCustomer, hibpBreach, seedExposures, writeTempFile } from "../helpers/breach-fixtures";

let testDb: TestDatabase;
let org: TestOrg;
let breachIds: Map<string, string>;

const thisYear = new Date().getUTCFullYear();

beforeAll(async () => {
  testDb = await createTestDatabase();
  org = await createTestOrg(testDb.db);
  breachIds = await seedExposures(
    testDb.db,
    [
      hibpBreach("Alpha", { BreachDate: `${thisYear}-01-02`, DataClasses: ["Email addresses", "Passwords"] }),
      hibpBreach("Beta", { BreachDate: "2015-06-01", DataClasses: ["Email addresses", "Phone numbers"] }),
      hibpBreach("Gone", { IsRetired: true }),
    ],
    { "ceo@acme.example": ["Beta"], "old@fabrikam.example": ["Beta"] },
  );
});
afterAll(async () => {
  await testDb?.close();
});

/** Runs the matching jobs that are due (only those: the alerts they queue stay queued to be looked at). */
async function runMatchingJobs(): Promise<number> {
  let ran = 0;
  for (let count = -1; count !== 0; ran += count) count = await runDueJobs(testDb.db, jobCatalogue, { kinds: [MATCH_NEW_EXPOSURES_JOB] });
  return ran;
}

async function snapshot(customerId: string) {
  const customer = await testDb.db.customer.findUniqueOrThrow({ where: { id: customerId } });
  const instances = await testDb.db.customerBreach.findMany({
    where: { customerId },
    include: { breach: true },
    orderBy: { breach: { name: "asc" } },
  });
  return {
    threatScore: customer.threatScore,
    updatedAt: customer.updatedAt,
    lastScannedAt: customer.lastScannedAt,
    breachCount: customer.breachCount,
    instances: instances.map((row) => ({ id: row.id, name: row.breach.name, emails: row.emails, resolved: row.resolved })),
    events: (await testDb.db.outboxEvent.findMany({ where: { customerId }, orderBy: { sequence: "asc" } })).map((event) => ({
      id: event.id,
      type: event.type,
      payload: event.payload,
    })),
    alerts: (await testDb.db.notification.findMany({ where: { customerId, kind: "breach_alert" }, orderBy: { createdAt: "asc" } })).map(
      (row) => ({ cause: row.cause, recipient: row.recipient }),
    ),
    assets: (await testDb.db.monitoredAsset.findMany({ where: { customerId }, orderBy: { value: "asc" } })).map(
      (asset) => `${asset.kind} ${asset.value} ${asset.source}`,
    ),
  };
}

async function scannedCustomer(options: Parameters<typeof createBreachTestCustomer>[2]) {
  const customer = await createBreachTestCustomer(testDb.db, org.partner.id, options);
  await testDb.db.customer.update({
    where: { id: customer.id },
    data: { alertRecipients: [`security@${customer.reference.toLowerCase()}.example`] },
  });
  await scanCustomer(testDb.db, customer.id, "onboard");
  return customer;
}

describe("incremental matching of an import", () => {
  it("gives the active customers concerned their instances, score, event and alert at once, and nobody else anything", async () => {
    const acme = await scannedCustomer({ name: "Acme", emails: ["ceo@acme.example", "bob@mail.example"] });
    const prospect = await scannedCustomer({ status: "prospect", emails: ["ceo@acme.example"] });
    const inactive = await scannedCustomer({ status: "inactive", emails: ["ceo@acme.example"] });
    const unaffected = await scannedCustomer({ emails: ["nobody@elsewhere.example"] });
    const before = new Map(
      await Promise.all([acme, prospect, inactive, unaffected].map(async (c) => [c.id, await snapshot(c.id)] as const)),
    );
    expect(before.get(acme.id)!.instances.map((instance) => instance.name)).toEqual(["Beta"]);
    await testDb.db.job.deleteMany();

    const accounts = await writeTempFile(
      "new.csv",
      [
        "email,breach_name",
        "CEO@acme.example,Alpha",
        "bob@mail.example,alpha",
        "stranger@far.example,Alpha",
        "ceo@acme.example,Beta",
        "ceo@acme.example,Gone",
      ].join("\n"),
    );
    const catalogue = await writeTempFile("catalogue.json", "[]");
    expect(await runImportBreaches(testDb.db, { catalogueFile: catalogue, accountsFile: accounts }, { write: () => true })).toEqual({
      breaches: 0,
      accounts: 4,
    });

    // The import queued one matching job, naming itself, and its rows' breach/range prefixes; no scans.
    const queued = await testDb.db.job.findMany({ orderBy: { kind: "asc" } });
    const importRecord = await testDb.db.exposureImport.findFirstOrThrow({ orderBy: { id: "desc" } });
    expect(importRecord.added).toBe(4n);
    expect(queued.map((job) => [job.kind, job.payload, job.status])).toEqual([
      [INDEX_RANGE_PREFIXES_JOB, { importId: Number(importRecord.id) }, "pending"],
      [MATCH_NEW_EXPOSURES_JOB, { importId: Number(importRecord.id) }, "pending"],
    ]);

    expect(await runMatchingJobs()).toBe(1);
    expect(await testDb.db.job.count({ where: { kind: SCAN_CUSTOMER_JOB } })).toBe(0);

    const after = await snapshot(acme.id);
    const was = before.get(acme.id)!;
    const alpha = after.instances.find((instance) => instance.name === "Alpha")!;
    expect(after.instances).toEqual([
      { id: expect.any(String), name: "Alpha", emails: ["bob@mail.example", "ceo@acme.example"], resolved: false },
      was.instances[0],
    ]);
    expect(after.breachCount).toBe(2);
    expect(after.threatScore).toBeGreaterThan(was.threatScore);
    expect(after.lastScannedAt).toEqual(was.lastScannedAt);
    const newEvents = after.events.slice(was.events.length);
    expect(newEvents.map(({ type, payload }) => [type, payload])).toEqual([
      [
        "customer.breach.found",
        {
          customer: { uuid: acme.id, name: "Acme", reference: acme.reference },
          breaches: [{ uuid: alpha.id, name: "Alpha", emails: ["bob@mail.example", "ceo@acme.example"] }],
        },
      ],
    ]);
    expect(after.alerts.slice(was.alerts.length)).toEqual([
      { cause: newEvents[0]!.id, recipient: `security@${acme.reference.toLowerCase()}.example` },
    ]);
    const sends = await testDb.db.job.findMany({ where: { kind: "notifications.send", status: "pending" } });
    expect(sends).toHaveLength(1);

    // Exactly what a scan finds: a full scan now adds nothing and keeps the score.
    expect(await scanCustomer(testDb.db, acme.id, "daily")).toMatchObject({
      scanned: true,
      newBreaches: 0,
      discoveredEmails: 0,
      threatScore: after.threatScore,
    });

    for (const customer of [prospect, inactive, unaffected]) expect(await snapshot(customer.id)).toEqual(before.get(customer.id));

    // The job again (a retry, a second worker): nothing new anywhere.
    await matchNewExposuresJob.enqueue(testDb.db, { importId: Number(importRecord.id) });
    const settled = await snapshot(acme.id);
    expect(await runMatchingJobs()).toBe(1);
    const again = await snapshot(acme.id);
    expect({ ...again, updatedAt: undefined }).toEqual({ ...settled, updatedAt: undefined });
    for (const customer of [prospect, inactive, unaffected]) expect(await snapshot(customer.id)).toEqual(before.get(customer.id));
    expect(await testDb.db.job.count({ where: { kind: "notifications.send" } })).toBe(1);
  });

  it("discovers new addresses at a monitored domain, as a scan does", async () => {
    const fabrikam = await scannedCustomer({ name: "Fabrikam", domains: ["fabrikam.example"] });
    const was = await snapshot(fabrikam.id);
    expect(was.assets).toEqual(["domain fabrikam.example partner", "email old@fabrikam.example discovered"]);
    await testDb.db.job.deleteMany();

    const accounts = await writeTempFile(
      "domain.csv",
      "email,breach_name\nnew@fabrikam.example,Alpha\nold@fabrikam.example,Alpha\nx@notfabrikam.example,Alpha\n",
    );
    expect((await importAccounts(testDb.db, accounts)).added).toBe(3);
    expect(await runMatchingJobs()).toBe(1);

    const after = await snapshot(fabrikam.id);
    expect(after.assets).toEqual([
      "domain fabrikam.example partner",
      "email new@fabrikam.example discovered",
      "email old@fabrikam.example discovered",
    ]);
    const alpha = after.instances.find((instance) => instance.name === "Alpha")!;
    expect(alpha.emails).toEqual(["new@fabrikam.example", "old@fabrikam.example"]);
    const ref = { uuid: fabrikam.id, name: "Fabrikam", reference: fabrikam.reference };
    const newAsset = await testDb.db.monitoredAsset.findFirstOrThrow({ where: { customerId: fabrikam.id, value: "new@fabrikam.example" } });
    expect(after.events.slice(was.events.length).map(({ type, payload }) => [type, payload])).toEqual([
      ["customer.asset.added", { customer: ref, assets: [{ uuid: newAsset.id, type: "email", value: "new@fabrikam.example" }] }],
      [
        "customer.breach.found",
        { customer: ref, breaches: [{ uuid: alpha.id, name: "Alpha", emails: ["new@fabrikam.example", "old@fabrikam.example"] }] },
      ],
    ]);
    expect(after.threatScore).toBeGreaterThan(was.threatScore);
  });

  it("queues its matching in the import's transaction: an import that rolls back queues nothing", async () => {
    await testDb.db.job.deleteMany();
    const importsBefore = await testDb.db.exposureImport.count();
    const accounts = await writeTempFile("rolled-back.csv", "email,breach_name\nceo@acme.example,Alpha\nrollback@acme.example,Alpha\n");
    // The progress report after the merge is the import's last step in its transaction; failing there undoes all of it.
    const failing = importAccounts(testDb.db, accounts, {
      onProgress: (progress) => {
        if (progress.added > 0) throw new Error("the terminal went away");
      },
    });
    await expect(failing).rejects.toThrow("the terminal went away");
    expect(await testDb.db.job.count()).toBe(0);
    expect(await testDb.db.exposureImport.count()).toBe(importsBefore);
    expect(await testDb.db.breachExposure.count({ where: { email: "rollback@acme.example" } })).toBe(0);

    expect((await importAccounts(testDb.db, accounts)).added).toBe(1);
    expect(await testDb.db.job.count({ where: { kind: MATCH_NEW_EXPOSURES_JOB } })).toBe(1);
  });

  it("queues nothing for an import that adds nothing", async () => {
    await testDb.db.job.deleteMany();
    const accounts = await writeTempFile("known.csv", "email,breach_name\nceo@acme.example,Alpha\n");
    expect((await importAccounts(testDb.db, accounts)).added).toBe(0);
    expect(await testDb.db.job.count()).toBe(0);
  });
});

describe("incremental matching of imports committed before it runs", () => {
  it("matches every pending import in one run: a customer exposed in each is written once", async () => {
    const tailspin = await scannedCustomer({ name: "Tailspin", emails: ["ann@tailspin.example", "ben@tailspin.example"] });
    const was = await snapshot(tailspin.id);
    await testDb.db.job.deleteMany();
    // Two imports (a stealer-log file's chunks, or two files) commit before any worker runs.
    expect(
      (await importAccounts(testDb.db, await writeTempFile("first.csv", "email,breach_name\nann@tailspin.example,Alpha\n"))).added,
    ).toBe(1);
    expect(
      (await importAccounts(testDb.db, await writeTempFile("second.csv", "email,breach_name\nben@tailspin.example,Alpha\n"))).added,
    ).toBe(1);
    const imports = await testDb.db.exposureImport.findMany({ orderBy: { id: "desc" }, take: 2 });
    expect(imports.map((row) => row.matchPending)).toEqual([true, true]);
    // The second request joined the first's pending job.
    expect((await testDb.db.job.findMany({ where: { kind: MATCH_NEW_EXPOSURES_JOB } })).map((job) => job.payload)).toEqual([
      { importId: Number(imports[1]!.id) },
    ]);

    expect(await runMatchingJobs()).toBe(1);
    const after = await snapshot(tailspin.id);
    const alpha = after.instances.find((instance) => instance.name === "Alpha")!;
    expect(alpha.emails).toEqual(["ann@tailspin.example", "ben@tailspin.example"]);
    const ref = { uuid: tailspin.id, name: "Tailspin", reference: tailspin.reference };
    const newEvents = after.events.slice(was.events.length);
    expect(newEvents.map(({ type, payload }) => [type, payload])).toEqual([
      [
        "customer.breach.found",
        { customer: ref, breaches: [{ uuid: alpha.id, name: "Alpha", emails: ["ann@tailspin.example", "ben@tailspin.example"] }] },
      ],
    ]);
    expect(after.alerts.slice(was.alerts.length)).toEqual([
      { cause: newEvents[0]!.id, recipient: `security@${tailspin.reference.toLowerCase()}.example` },
    ]);
    expect(
      (await testDb.db.exposureImport.findMany({ where: { id: { in: imports.map((row) => row.id) } } })).map((row) => row.matchPending),
    ).toEqual([false, false]);
  });

  it("writes a page of customers together, each as alone, their events in customer order", async () => {
    const adatum = await scannedCustomer({ name: "Adatum", domains: ["adatum.example"], emails: ["boss@mail.example"] });
    const litware = await scannedCustomer({ name: "Litware", domains: ["litware.example"] });
    await testDb.db.job.deleteMany();
    const sequenceBefore = (await testDb.db.outboxEvent.aggregate({ _max: { sequence: true } }))._max.sequence ?? 0n;
    const file = await writeTempFile(
      "page.csv",
      "email,breach_name\nnew@adatum.example,Alpha\nboss@mail.example,Alpha\nnew@litware.example,Alpha\nold@litware.example,Beta\n",
    );
    expect((await importAccounts(testDb.db, file)).added).toBe(4);
    expect(await runMatchingJobs()).toBe(1);

    const events = await testDb.db.outboxEvent.findMany({ where: { sequence: { gt: sequenceBefore } }, orderBy: { sequence: "asc" } });
    const [first, second] = [adatum, litware].sort((a, b) => (a.id < b.id ? -1 : 1));
    expect(events.map((event) => [event.customerId, event.type])).toEqual([
      [first!.id, "customer.asset.added"],
      [first!.id, "customer.breach.found"],
      [second!.id, "customer.asset.added"],
      [second!.id, "customer.breach.found"],
    ]);
    for (const customer of [adatum, litware]) {
      const ref = { uuid: customer.id, name: customer.companyName, reference: customer.reference };
      const assets = await testDb.db.monitoredAsset.findMany({ where: { customerId: customer.id, kind: "email", source: "discovered" } });
      const instances = await testDb.db.customerBreach.findMany({ where: { customerId: customer.id }, include: { breach: true } });
      const own = events.filter((event) => event.customerId === customer.id);
      expect(own[0]!.payload).toEqual({
        customer: ref,
        assets: assets.sort((a, b) => (a.value < b.value ? -1 : 1)).map((asset) => ({ uuid: asset.id, type: "email", value: asset.value })),
      });
      expect(own[1]!.payload).toEqual({
        customer: ref,
        breaches: instances
          .sort((a, b) => (a.breach.name < b.breach.name ? -1 : 1))
          .map((instance) => ({ uuid: instance.id, name: instance.breach.name, emails: instance.emails })),
      });
      expect((await snapshot(customer.id)).alerts.at(-1)).toEqual({
        cause: own[1]!.id,
        recipient: `security@${customer.reference.toLowerCase()}.example`,
      });
    }
    expect(
      (await testDb.db.customerBreach.findMany({ where: { customerId: litware.id }, include: { breach: true } })).map((row) => [
        row.breach.name,
        row.emails,
      ]),
    ).toEqual(
      expect.arrayContaining([
        ["Alpha", ["new@litware.example"]],
        ["Beta", ["old@litware.example"]],
      ]),
    );
    // Exactly what a scan finds: a full scan of each adds nothing.
    for (const customer of [adatum, litware])
      expect(await scanCustomer(testDb.db, customer.id, "daily")).toMatchObject({ newBreaches: 0, discoveredEmails: 0 });
  });

  it("leaves an import that commits while a run goes on to one follow-up run", async () => {
    const northwind = await scannedCustomer({ name: "Northwind", emails: ["cat@northwind.example", "dan@northwind.example"] });
    const was = await snapshot(northwind.id);
    await testDb.db.job.deleteMany();
    await importAccounts(testDb.db, await writeTempFile("during-1.csv", "email,breach_name\ncat@northwind.example,Alpha\n"));
    const [running] = await claimDueJobs(testDb.db, { limit: 1, leaseMs: 60_000, kinds: [MATCH_NEW_EXPOSURES_JOB] });
    // The run has read the pending imports and written them when the next import commits.
    const first = await matchPendingImports(testDb.db, (running!.payload as { importId: number }).importId);
    expect(first).toMatchObject({ customers: 1, newBreaches: 1 });
    await importAccounts(testDb.db, await writeTempFile("during-2.csv", "email,breach_name\ndan@northwind.example,Alpha\n"));
    await completeJob(testDb.db, running!.id);

    expect(await runMatchingJobs()).toBe(1);
    const after = await snapshot(northwind.id);
    expect(after.instances.find((instance) => instance.name === "Alpha")!.emails).toEqual([
      "cat@northwind.example",
      "dan@northwind.example",
    ]);
    // The first run's event; the follow-up only adds an address to the instance, so it alerts without an event.
    expect(after.events.slice(was.events.length).map((event) => event.type)).toEqual(["customer.breach.found"]);
    expect(after.alerts.slice(was.alerts.length)).toHaveLength(2);
    expect(await testDb.db.exposureImport.count({ where: { matchPending: true } })).toBe(0);
  });
});

describe("incremental matching of catalogue breaches", () => {
  it("matches every index exposure of new breaches against active customers only, once", async () => {
    const contoso = await scannedCustomer({ name: "Contoso", domains: ["contoso.example"], emails: ["cfo@mail.example"] });
    const prospect = await scannedCustomer({ status: "prospect", emails: ["cfo@mail.example"] });
    const unaffected = await scannedCustomer({ emails: ["quiet@mail.example"] });
    const was = await snapshot(contoso.id);
    const others = [await snapshot(prospect.id), await snapshot(unaffected.id)];

    // A catalogue sync brings Delta, whose exposures the index already holds.
    await importCatalogue(testDb.db, [
      hibpBreach("Delta", { BreachDate: `${thisYear}-02-03` }),
      hibpBreach("Epsilon", { IsRetired: true }),
    ]);
    const delta = (await testDb.db.breach.findUniqueOrThrow({ where: { name: "Delta" } })).id;
    const epsilon = (await testDb.db.breach.findUniqueOrThrow({ where: { name: "Epsilon" } })).id;
    await insertExposures(testDb.db, [
      { email: "cfo@mail.example", breachId: delta },
      { email: "it@contoso.example", breachId: delta },
      { email: "cfo@mail.example", breachId: epsilon },
      { email: "someone@mail.example", breachId: delta },
    ]);
    await testDb.db.job.deleteMany();
    await testDb.db.$transaction((tx) => requestBreachMatching(tx, [delta, epsilon, breachIds.get("Alpha")!]));
    expect((await testDb.db.job.findMany()).map((job) => [job.kind, job.payload])).toEqual([
      [MATCH_NEW_EXPOSURES_JOB, { breachIds: [delta, epsilon, breachIds.get("Alpha")!].sort() }],
    ]);
    expect(await runMatchingJobs()).toBe(1);

    const after = await snapshot(contoso.id);
    const deltaInstance = after.instances.find((instance) => instance.name === "Delta")!;
    expect(after.instances.map((instance) => instance.name)).toEqual(["Delta"]);
    expect(deltaInstance.emails).toEqual(["cfo@mail.example", "it@contoso.example"]);
    expect(after.events.slice(was.events.length).map((event) => event.type)).toEqual(["customer.asset.added", "customer.breach.found"]);
    expect(after.alerts).toHaveLength(was.alerts.length + 1);
    expect(after.threatScore).toBeGreaterThan(was.threatScore);
    expect([await snapshot(prospect.id), await snapshot(unaffected.id)]).toEqual(others);

    // The service itself, run again: matches found, nothing new written.
    expect(await matchBreachesForActiveCustomers(testDb.db, [delta])).toMatchObject({ customers: 1, newBreaches: 0, discoveredEmails: 0 });
    expect((await snapshot(contoso.id)).events).toEqual(after.events);
  });
});
