import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../server/db/client";
import { connectDirectory, getDirectory } from "../../server/directory/connections";
import { enqueueDueDirectorySyncs } from "../../server/directory/jobs";
import { syncDirectory } from "../../server/directory/sync";
import { refreshThreatScore } from "../../server/customers/threat-score";
import { isInactiveMailbox } from "../../server/monitored-mailboxes";
import { monthlyReportFacts } from "../../server/notifications/monthly-reports";
import { createBreachTestCustomer } from "../helpers/breach-fixtures";
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

    expect(outcome).toMatchObject({ status: "ok", added: 3, removed: 0 });
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
