import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { Db } from "../../server/db/client";
import { connectDirectory, getDirectory } from "../../server/directory/connections";
import { enqueueDueDirectorySyncs, requestDirectorySyncs } from "../../server/directory/jobs";
import { claimDueJobs, completeJob } from "../../server/jobs/queue";
import { MicrosoftGraphDirectory } from "../../server/directory/microsoft-graph";
import type { DirectoryProvider } from "../../server/directory/provider";
import { syncDirectory } from "../../server/directory/sync";
import { refreshThreatScore } from "../../server/customers/threat-score";
import { isInactiveMailbox } from "../../server/monitored-mailboxes";
import { monthlyReportFacts } from "../../server/notifications/monthly-reports";
import { createBreachTestCustomer, hibpBreach, seedExposures } from "../helpers/breach-fixtures";
import { scanCustomer } from "../../server/findings/scanner";
import { addCustomerBreach, createTestBreach } from "../helpers/customers";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { startMicrosoftCloud } from "../helpers/microsoft-graph";

const credentials = { tenantId: randomUUID(), clientId: randomUUID(), clientSecret: `secret-${randomUUID()}` };

let testDb: TestDatabase;
let db: Db;
let cloud: Awaited<ReturnType<typeof startMicrosoftCloud>>;
let org: TestOrg;
const savedEnv = { ...process.env };

beforeAll(async () => {
  testDb = await createTestDatabase();
  db = testDb.db;
  cloud = await startMicrosoftCloud(credentials);
  Object.assign(process.env, cloud.env);
  org = await createTestOrg(db, "Directory", { domainPolicy: "verified" });
});
afterAll(async () => {
  process.env = savedEnv;
  await cloud?.close();
  await testDb?.close();
});
beforeEach(() => cloud.tenant.reset());
afterEach(() => {
  expect(cloud.tenant.violations).toEqual([]);
});

async function newCustomer(options: { emails?: string[]; domains?: string[] } = {}) {
  return (await createBreachTestCustomer(db, org.partner.id, { status: "active", ...options })).id;
}

async function connect(customerId: string, extra: { groupId?: string | null; clientSecret?: string } = {}) {
  await connectDirectory(db, org.partner.id, customerId, { provider: "microsoft365", ...credentials, ...extra });
  return (await db.directoryConnection.findUniqueOrThrow({ where: { customerId }, select: { id: true } })).id;
}

async function emailAssets(customerId: string) {
  return db.monitoredAsset.findMany({
    where: { customerId, kind: "email" },
    select: { value: true, source: true, active: true },
    orderBy: { value: "asc" },
  });
}

async function assetEvents(customerId: string) {
  const events = await db.outboxEvent.findMany({
    where: { customerId, type: { in: ["customer.asset.added", "customer.asset.removed"] } },
    orderBy: { sequence: "asc" },
    select: { type: true, payload: true },
  });
  return events.map((event) => ({
    type: event.type,
    values: (event.payload as { assets: Array<{ value: string }> }).assets.map((asset) => asset.value),
  }));
}

/** A tenant's users for one customer's tests: ids unique to the test. */
function user(name: string, overrides: Record<string, unknown> = {}) {
  return {
    id: randomUUID(),
    displayName: name,
    mail: `${name}@contoso.example`,
    userPrincipalName: `${name}@contoso.example`,
    proxyAddresses: [`SMTP:${name}@contoso.example`],
    accountEnabled: true,
    userType: "Member" as const,
    ...overrides,
  };
}

describe("a directory sync", () => {
  it("monitors enabled members' mailboxes and smtp aliases over several pages, not guests, disabled users or routing addresses", async () => {
    cloud.tenant.pageSize = 2;
    const ada = user("ada", {
      proxyAddresses: [
        "SMTP:ada@contoso.example",
        "smtp:A.Lovelace@Contoso.Example",
        "smtp:ada@contoso.onmicrosoft.com",
        "SIP:ada@contoso.example",
      ],
    });
    const bob = user("bob");
    const guest = user("guest", { userType: "Guest", mail: "guest@partner.example", proxyAddresses: ["SMTP:guest@partner.example"] });
    const disabled = user("carol", { accountEnabled: false });
    const noMailbox = user("dave", { mail: null, proxyAddresses: [] });
    for (const entry of [ada, bob, guest, disabled, noMailbox]) cloud.tenant.upsertUser(entry);
    const customerId = await newCustomer({ emails: ["owner@contoso.example"] });
    const connectionId = await connect(customerId);

    const outcome = await syncDirectory(db, connectionId);

    expect(outcome, JSON.stringify(outcome)).toMatchObject({ status: "ok", added: 3, removed: 0 });
    expect(await emailAssets(customerId)).toEqual([
      { value: "a.lovelace@contoso.example", source: "directory", active: true },
      { value: "ada@contoso.example", source: "directory", active: true },
      { value: "bob@contoso.example", source: "directory", active: true },
      { value: "owner@contoso.example", source: "partner", active: true },
    ]);
    expect(await assetEvents(customerId)).toEqual([
      { type: "customer.asset.added", values: ["a.lovelace@contoso.example", "ada@contoso.example", "bob@contoso.example"] },
    ]);
    const deltaPages = cloud.tenant.requests.filter((request) => request.path === "/v1.0/users/delta");
    expect(deltaPages.length).toBeGreaterThanOrEqual(3);
    expect(
      await db.job.count({ where: { kind: "breaches.scan-customer", payload: { equals: { customerId, reason: "directory" } } } }),
    ).toBe(1);
    const view = await getDirectory(db, org.partner.id, customerId);
    expect(view).toMatchObject({ state: "ok", lastError: null, activeUsers: 3, inactiveUsers: 1, mailboxCount: 3 });
    expect(view.lastSyncAt).not.toBeNull();
    expect(JSON.stringify(view)).not.toContain(credentials.clientSecret);
    const stored = await db.directoryConnection.findUniqueOrThrow({ where: { id: connectionId } });
    expect(stored.clientSecretCiphertext).not.toContain(credentials.clientSecret);
    expect(stored.deltaCursor).toContain("$deltatoken=");
    expect(cloud.identity.tokensIssued()).toBeGreaterThan(0);
  });
});

describe("a delta sync", () => {
  it("stops monitoring disabled, deleted and no longer listed addresses, keeps their history, and leaves the partner's own alone", async () => {
    cloud.tenant.pageSize = 100;
    const erin = user("erin", { proxyAddresses: ["SMTP:erin@contoso.example", "smtp:e.old@contoso.example"] });
    const frank = user("frank");
    const gina = user("gina");
    const hank = user("hank");
    for (const entry of [erin, frank, gina, hank]) cloud.tenant.upsertUser(entry);
    // The partner monitors hank's address by hand too: it stays the partner's.
    const customerId = await newCustomer({ emails: ["hank@contoso.example"] });
    const connectionId = await connect(customerId);
    expect(await syncDirectory(db, connectionId)).toMatchObject({ status: "ok", added: 4 });
    const breach = await createTestBreach(db);
    const instance = await addCustomerBreach(db, customerId, breach.id, { emails: ["frank@contoso.example"] });
    const scoreBefore = await refreshThreatScore(db, customerId);
    expect(scoreBefore).toBeGreaterThan(0);

    cloud.tenant.upsertUser({ id: frank.id, accountEnabled: false });
    cloud.tenant.deleteUser(gina.id);
    cloud.tenant.deleteUser(hank.id);
    cloud.tenant.upsertUser({ id: erin.id, proxyAddresses: ["SMTP:erin@contoso.example", "smtp:erin.new@contoso.example"] });
    const outcome = await syncDirectory(db, connectionId);

    expect(outcome).toMatchObject({ status: "ok", users: 4, added: 1, removed: 3 });
    const deltaQuery = cloud.tenant.requests.filter((request) => request.query.includes("$deltatoken"));
    expect(deltaQuery.length).toBeGreaterThan(0);
    expect(await emailAssets(customerId)).toEqual([
      { value: "e.old@contoso.example", source: "directory", active: false },
      { value: "erin.new@contoso.example", source: "directory", active: true },
      { value: "erin@contoso.example", source: "directory", active: true },
      { value: "frank@contoso.example", source: "directory", active: false },
      { value: "gina@contoso.example", source: "directory", active: false },
      { value: "hank@contoso.example", source: "partner", active: true },
    ]);
    expect((await assetEvents(customerId)).slice(-2)).toEqual([
      { type: "customer.asset.added", values: ["erin.new@contoso.example"] },
      { type: "customer.asset.removed", values: ["e.old@contoso.example", "frank@contoso.example", "gina@contoso.example"] },
    ]);
    // History stays; the open finding of a user who left leaves the score, the report and the API's lists.
    expect(await db.customerBreach.findUnique({ where: { id: instance.id }, select: { emails: true } })).toEqual({
      emails: ["frank@contoso.example"],
    });
    expect((await db.customer.findUniqueOrThrow({ where: { id: customerId } })).threatScore).toBe(0);
    expect(await isInactiveMailbox(db, customerId, "frank@contoso.example")).toBe(true);
    expect(await isInactiveMailbox(db, customerId, "hank@contoso.example")).toBe(false);
    const customer = await db.customer.findUniqueOrThrow({ where: { id: customerId } });
    const report = await monthlyReportFacts(db, customer, new Date().toISOString().slice(0, 7));
    expect(report).toMatchObject({ openBreaches: 0, newBreaches: { count: 0, listed: [] }, emailCount: 3 });
    expect(customer.monitoredEmailCount).toBe(3);
    expect(await getDirectory(db, org.partner.id, customerId)).toMatchObject({ activeUsers: 1, inactiveUsers: 3, mailboxCount: 2 });

    // Enabled again: the same asset is monitored again.
    cloud.tenant.upsertUser({ id: frank.id, accountEnabled: true });
    expect(await syncDirectory(db, connectionId)).toMatchObject({ status: "ok", added: 1, removed: 0 });
    expect((await emailAssets(customerId)).find((asset) => asset.value === "frank@contoso.example")).toEqual({
      value: "frank@contoso.example",
      source: "directory",
      active: true,
    });
    expect(await refreshThreatScore(db, customerId)).toBe(scoreBefore);
  });

  it("waits out a 429's Retry-After and goes on", async () => {
    cloud.tenant.upsertUser(user("ivy"));
    const customerId = await newCustomer();
    const connectionId = await connect(customerId);
    const before = cloud.tenant.requests.length;
    cloud.tenant.throttle(1, "1");
    expect(await syncDirectory(db, connectionId)).toMatchObject({ status: "ok" });
    const answered = cloud.tenant.requests.slice(before).map((request) => request.status);
    expect(answered.slice(0, 2)).toEqual([429, 200]);
    expect((await emailAssets(customerId)).map((asset) => asset.value)).toContain("ivy@contoso.example");
  });

  it("fails with a reason a partner can act on when the tenant's admin did not consent", async () => {
    const customerId = await newCustomer();
    const connectionId = await connect(customerId);
    cloud.tenant.consented.delete("User.Read.All");
    try {
      expect(await syncDirectory(db, connectionId)).toMatchObject({ status: "failing" });
    } finally {
      cloud.tenant.consented.add("User.Read.All");
    }
    const view = await getDirectory(db, org.partner.id, customerId);
    expect(view.state).toBe("failing");
    expect(view.lastError).toMatch(/^admin consent missing for User\.Read\.All/);
    expect(await syncDirectory(db, connectionId)).toMatchObject({ status: "ok" });
    expect(await getDirectory(db, org.partner.id, customerId)).toMatchObject({ state: "ok", lastError: null });
  });

  it("fails on a wrong client secret with the sign-in's reason", async () => {
    const customerId = await newCustomer();
    const connectionId = await connect(customerId, { clientSecret: "not-the-secret" });
    expect(await syncDirectory(db, connectionId)).toMatchObject({ status: "failing" });
    expect((await getDirectory(db, org.partner.id, customerId)).lastError).toMatch(/sign-in refused the application \(invalid_client\)/);
  });

  it("falls back to a full sync when Graph no longer accepts the delta link, and removes who left meanwhile", async () => {
    const jack = user("jack");
    const kate = user("kate");
    cloud.tenant.upsertUser(jack);
    cloud.tenant.upsertUser(kate);
    const customerId = await newCustomer();
    const connectionId = await connect(customerId);
    await syncDirectory(db, connectionId);
    cloud.tenant.deleteUser(kate.id);
    cloud.tenant.expireDeltaLinks();
    const before = cloud.tenant.requests.length;
    expect(await syncDirectory(db, connectionId)).toMatchObject({ status: "ok", removed: 1 });
    expect(cloud.tenant.requests.slice(before)[0]).toMatchObject({ status: 410 });
    const active = (await emailAssets(customerId)).filter((asset) => asset.active).map((asset) => asset.value);
    expect(active).toContain("jack@contoso.example");
    expect(active).not.toContain("kate@contoso.example");
  });

  it("with a group, monitors only its transitive members and stops when one leaves it", async () => {
    const inner = randomUUID();
    const outer = randomUUID();
    const liam = user("liam");
    const mia = user("mia");
    const noah = user("noah");
    for (const entry of [liam, mia, noah]) cloud.tenant.upsertUser(entry);
    cloud.tenant.setGroup(outer, { users: [liam.id], groups: [inner] });
    cloud.tenant.setGroup(inner, { users: [mia.id] });
    const customerId = await newCustomer();
    const connectionId = await connect(customerId, { groupId: outer });
    await syncDirectory(db, connectionId);
    const active = async () =>
      (await emailAssets(customerId)).filter(
        (asset) => asset.active && ["liam", "mia", "noah"].some((n) => asset.value.startsWith(`${n}@`)),
      );
    expect((await active()).map((asset) => asset.value)).toEqual(["liam@contoso.example", "mia@contoso.example"]);
    cloud.tenant.setGroup(inner, { users: [] });
    await syncDirectory(db, connectionId);
    expect((await active()).map((asset) => asset.value)).toEqual(["liam@contoso.example"]);

    cloud.tenant.consented.delete("GroupMember.Read.All");
    try {
      await syncDirectory(db, connectionId);
    } finally {
      cloud.tenant.consented.add("GroupMember.Read.All");
    }
    expect((await getDirectory(db, org.partner.id, customerId)).lastError).toMatch(/^admin consent missing for GroupMember\.Read\.All/);
  });

  it("counts the tenant's verified domains as verified and reveals what was withheld at them", async () => {
    cloud.tenant.domains = [
      { id: "contoso.example", isVerified: true, isInitial: false, isDefault: true },
      { id: "contoso.onmicrosoft.com", isVerified: true, isInitial: true, isDefault: false },
      { id: "unproven.example", isVerified: false, isInitial: false, isDefault: false },
    ];
    const customerId = await newCustomer({ domains: ["contoso.example", "unproven.example"] });
    const breach = await createTestBreach(db);
    await db.withheldExposure.create({
      data: { customerId, email: "secret@contoso.example", breachId: breach.id, domain: "contoso.example" },
    });
    const connectionId = await connect(customerId);
    await syncDirectory(db, connectionId);

    const domains = await db.customerDomain.findMany({ where: { customerId }, select: { domain: true, status: true, method: true } });
    expect(domains).toEqual(expect.arrayContaining([{ domain: "contoso.example", status: "verified", method: "directory" }]));
    expect(domains.find((domain) => domain.domain === "unproven.example")?.status ?? "unverified").toBe("unverified");
    const verifiedEvents = await db.outboxEvent.findMany({
      where: { customerId, type: "customer.domain.verified" },
      select: { payload: true },
    });
    expect(verifiedEvents.map((event) => (event.payload as { method: string }).method)).toEqual(["directory"]);
    expect(await db.customerBreach.count({ where: { customerId, breachId: breach.id } })).toBe(1);
    expect((await getDirectory(db, org.partner.id, customerId)).verifiedDomains).toEqual(["contoso.example"]);
    cloud.tenant.domains = [];
  });

  it("takes the partner's lookup budget for its addresses outside the tenant's verified domains, not for those inside", async () => {
    cloud.tenant.domains = [{ id: "owned.example", isVerified: true, isInitial: false, isDefault: true }];
    const guesser = await createTestOrg(db, "Guesser", { domainPolicy: "verified" });
    // A `mail` attribute can name any outside address: these are guesses at someone else's domain.
    for (const name of ["ann", "ben", "cat"]) {
      cloud.tenant.upsertUser(user(name, { mail: `${name}@owned.example`, proxyAddresses: [] }));
      cloud.tenant.upsertUser(user(`${name}-x`, { mail: `${name}@victim.example`, proxyAddresses: [] }));
    }
    await seedExposures(db, [hibpBreach("Leak")], { "ann@owned.example": ["Leak"], "cat@victim.example": ["Leak"] });
    const customerId = (await createBreachTestCustomer(db, guesser.partner.id, { status: "active" })).id;
    await connectDirectory(db, guesser.partner.id, customerId, { provider: "microsoft365", ...credentials });
    const connectionId = (await db.directoryConnection.findUniqueOrThrow({ where: { customerId }, select: { id: true } })).id;
    process.env.BREACH_RETRIEVE_RATE_LIMIT = "1";
    try {
      expect(await syncDirectory(db, connectionId)).toMatchObject({ status: "ok", added: 6 });
    } finally {
      delete process.env.BREACH_RETRIEVE_RATE_LIMIT;
    }
    const withheld = await db.withheldAddress.findMany({ where: { customerId }, select: { asset: { select: { value: true } } } });
    // The one lookup went to the first outside address in the directory's order; the rest are withheld.
    expect(withheld.map((row) => row.asset.value).sort()).toEqual(["ben@victim.example", "cat@victim.example"]);
    await scanCustomer(db, customerId, "directory");
    const instances = await db.customerBreach.findMany({ where: { customerId }, select: { emails: true } });
    expect(instances.flatMap((instance) => instance.emails)).toEqual(["ann@owned.example"]);
    cloud.tenant.domains = [];
  });

  it("runs one at a time per connection, and the schedule queues the connections due", async () => {
    const customerId = await newCustomer();
    const connectionId = await connect(customerId);
    await db.directoryConnection.update({ where: { id: connectionId }, data: { runLeaseUntil: new Date(Date.now() + 60_000) } });
    expect(await syncDirectory(db, connectionId)).toEqual({ status: "skipped", reason: "running" });
    await db.directoryConnection.update({ where: { id: connectionId }, data: { runLeaseUntil: null } });
    expect(await syncDirectory(db, connectionId)).toMatchObject({ status: "ok" });

    await db.job.deleteMany({ where: { kind: "directory.sync" } });
    await db.directoryConnection.update({ where: { id: connectionId }, data: { lastSyncAt: new Date(Date.now() - 7 * 3_600_000) } });
    const queued = await enqueueDueDirectorySyncs(db, 6);
    expect(queued).toBeGreaterThanOrEqual(1);
    expect(await db.job.count({ where: { kind: "directory.sync", dedupeKey: `directory-sync:${connectionId}` } })).toBe(1);
    await enqueueDueDirectorySyncs(db, 6);
    expect(await db.job.count({ where: { kind: "directory.sync", dedupeKey: `directory-sync:${connectionId}` } })).toBe(1);
  });

  it("turns a Sync now asked for while the connection's sync job runs into exactly one more sync after it", async () => {
    const customerId = await newCustomer();
    const connectionId = await connect(customerId);
    await db.job.deleteMany({ where: { kind: "directory.sync" } });
    await requestDirectorySyncs(db, [connectionId]);
    const [running] = await claimDueJobs(db, { limit: 1, leaseMs: 60_000, kinds: ["directory.sync"] });
    expect(running).toBeDefined();
    await requestDirectorySyncs(db, [connectionId]);
    await requestDirectorySyncs(db, [connectionId]);
    expect(await db.job.count({ where: { kind: "directory.sync", status: "pending" } })).toBe(0);
    await completeJob(db, running!.id);
    const pending = await db.job.findMany({ where: { kind: "directory.sync", status: "pending" }, select: { dedupeKey: true } });
    expect(pending).toEqual([{ dedupeKey: `directory-sync:${connectionId}` }]);
  });
  it("resumes a run whose process stopped halfway (its provider never answers again): each address added and announced once", async () => {
    cloud.tenant.pageSize = 3;
    const users = Array.from({ length: 12 }, (_, i) => user(`resume${i}`));
    for (const entry of users) cloud.tenant.upsertUser(entry);
    const customerId = await newCustomer();
    const connectionId = await connect(customerId);
    const graph = new MicrosoftGraphDirectory({
      ...credentials,
      loginUrl: cloud.env.MICROSOFT_LOGIN_URL,
      graphUrl: cloud.env.MICROSOFT_GRAPH_URL,
    });
    let calls = 0;
    const stalling: DirectoryProvider = {
      name: "microsoft365",
      userChanges: (cursor) => (++calls >= 3 ? new Promise(() => undefined) : graph.userChanges(cursor)),
      groupMembers: (groupId, cursor) => graph.groupMembers(groupId, cursor),
      domains: () => graph.domains(),
    };
    void syncDirectory(db, connectionId, { provider: stalling, leaseMs: 300 });
    await vi.waitFor(() => expect(calls).toBe(3), { timeout: 30_000 });
    const stopped = await db.directoryConnection.findUniqueOrThrow({ where: { id: connectionId } });
    expect(stopped).toMatchObject({ runPhase: "users", state: "syncing" });
    expect(stopped.runCursor).toContain("$skiptoken=");
    await new Promise((resolve) => setTimeout(resolve, 400)); // the stopped run's lease runs out

    expect(await syncDirectory(db, connectionId)).toMatchObject({ status: "ok", added: 12 });
    const added = (await assetEvents(customerId)).flatMap((event) => event.values).sort();
    expect(added).toEqual(users.map((entry) => entry.mail).sort());
    expect(await db.monitoredAsset.count({ where: { customerId, source: "directory", active: true } })).toBe(12);
  });
});
