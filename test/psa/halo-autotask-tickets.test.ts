import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../server/db/client";
import { setBreachResolved } from "../../server/findings/instances";
import { getPsaConnection, mapCustomerToPsaCompany, savePsaConnection, testPsaConnection } from "../../server/psa/connections";
import { runPsaSync } from "../../server/psa/jobs";
import { ticketKeyOf } from "../../server/psa/ticket-text";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTestOrg } from "../helpers/fixtures";
import { FakeAutotask, FakeHalo, type FakeTicket } from "../helpers/psa-fakes";
import { connectionIdOf, customerWithBreach } from "./support";

/**
 * HaloPSA and Autotask end to end against their stateful fakes (requests and answers checked
 * against the trimmed descriptions): the ticket, the note for a later mailbox, the close both
 * ways, a lost answer reconciled by searching for the key, and a refused credential.
 */
let testDb: TestDatabase;
let db: Db;
const halo = new FakeHalo({ clientId: randomUUID(), clientSecret: `halo-${randomUUID()}` });
const autotask = new FakeAutotask({ username: "api@msp.example", secret: `at-${randomUUID()}`, integrationCode: "INTEGRATION-CODE" });
const savedEnv = { ...process.env };

beforeAll(async () => {
  testDb = await createTestDatabase();
  db = testDb.db;
  await Promise.all([halo.start(), autotask.start()]);
  Object.assign(process.env, {
    WEBHOOK_ALLOW_PRIVATE_URLS: "true",
    WEBHOOK_RETRY_BASE_MS: "10",
    AUTOTASK_ZONE_LOOKUP_URL: `${autotask.baseUrl}${FakeAutotask.BASE}`,
  });
});
afterAll(async () => {
  process.env = savedEnv;
  await Promise.all([halo.close(), autotask.close()]);
  await testDb?.close();
});
afterEach(() => {
  expect([...halo.violations, ...autotask.violations]).toEqual([]);
});

const vendors = [
  {
    name: "HaloPSA",
    fake: halo,
    connect: (partnerId: string) =>
      savePsaConnection(db, partnerId, { provider: "halopsa", url: halo.baseUrl, ...halo.credentials, ticketTypeId: halo.ticketTypeId }),
    createOperation: "POST /Tickets",
    noteOperation: "POST /Actions",
    breakCredentials: () => (halo.credentials = { ...halo.credentials, clientSecret: "revoked" }),
    restoreCredentials: (saved: typeof halo.credentials) => (halo.credentials = saved),
    saved: () => ({ ...halo.credentials }),
  },
  {
    name: "Autotask",
    fake: autotask,
    // No zoneUrl: the zone is found from the username.
    connect: (partnerId: string) => savePsaConnection(db, partnerId, { provider: "autotask", ...autotask.credentials, queueId: 8 }),
    createOperation: "POST /V1.0/Tickets",
    noteOperation: "POST /V1.0/Tickets/{parentId}/Notes",
    breakCredentials: () => (autotask.credentials = { ...autotask.credentials, secret: "revoked" }),
    restoreCredentials: (saved: typeof autotask.credentials) => (autotask.credentials = saved),
    saved: () => ({ ...autotask.credentials }),
  },
] as const;

describe.each(vendors)("$name tickets", (vendor) => {
  async function setUp() {
    const org = await createTestOrg(db, vendor.name);
    await vendor.connect(org.partner.id);
    const found = await customerWithBreach(db, org.partner.id);
    await mapCustomerToPsaCompany(db, org.partner.id, found.customerId, "77");
    const sync = async () => runPsaSync(db, await connectionIdOf(db, org.partner.id));
    const ticket = (): FakeTicket[] => vendor.fake.ticketsWithKey(ticketKeyOf(found.instanceId, ""));
    return { org, found, sync, ticket };
  }

  it("opens one ticket with the active mailboxes, notes a later one, and closes it when the breach is resolved", async () => {
    const { org, found, sync, ticket } = await setUp();
    await sync();
    await sync();
    expect(ticket()).toHaveLength(1);
    expect(ticket()[0]!.companyId).toBe(77);
    for (const email of found.emails) expect(ticket()[0]!.description).toContain(email);
    expect(ticket()[0]!.description).not.toContain(found.left);
    await db.customerBreach.update({ where: { id: found.instanceId }, data: { emails: { push: `dan@${found.tag}.example` } } });
    await sync();
    expect(ticket()[0]!.notes).toEqual([expect.stringContaining(`dan@${found.tag}.example`)]);
    await setBreachResolved(db, org.partner.id, { breachInstanceId: found.instanceId, resolved: true });
    await sync();
    expect(ticket()[0]!.closed).toBe(true);
    expect(ticket()).toHaveLength(1);
  });

  it("resolves the breach when the ticket is closed in the PSA", async () => {
    const { found, sync, ticket } = await setUp();
    await sync();
    vendor.fake.closeInPsa(ticket()[0]!.id);
    await db.psaConnection.updateMany({ data: { lastPolledAt: null } });
    await sync();
    expect((await db.customerBreach.findUniqueOrThrow({ where: { id: found.instanceId } })).resolved).toBe(true);
  });

  it("reconciles a lost answer by searching for the key: one ticket", async () => {
    const { sync, ticket } = await setUp();
    vendor.fake.server.fail(vendor.createOperation, { lose: true });
    await sync();
    await db.psaTicket.updateMany({ data: { nextAttemptAt: new Date(Date.now() - 1000) } });
    await sync();
    expect(ticket()).toHaveLength(1);
    expect((await db.psaTicket.findFirstOrThrow({ where: { ticketKey: ticket()[0]!.key } })).externalId).toBe(String(ticket()[0]!.id));
  });

  it("a note or close whose answer was lost is found by its reference on the retry: each once", async () => {
    const { org, found, sync, ticket } = await setUp();
    await sync();
    await db.customerBreach.update({ where: { id: found.instanceId }, data: { emails: { push: `fay@${found.tag}.example` } } });
    vendor.fake.server.fail(vendor.noteOperation, { lose: true });
    await sync();
    await db.psaTicket.updateMany({ data: { nextAttemptAt: new Date(Date.now() - 1000) } });
    await sync();
    expect(ticket()[0]!.notes).toEqual([expect.stringContaining(`fay@${found.tag}.example`)]);
    await setBreachResolved(db, org.partner.id, { breachInstanceId: found.instanceId, resolved: true });
    vendor.fake.server.fail(vendor.noteOperation, { lose: true });
    await sync();
    await db.psaTicket.updateMany({ data: { nextAttemptAt: new Date(Date.now() - 1000) } });
    await sync();
    expect(ticket()[0]!.closed).toBe(true);
    expect(ticket()[0]!.notes).toEqual([expect.stringContaining(`fay@${found.tag}.example`), expect.stringContaining("marked resolved")]);
  });

  it("marks the connection failing when the PSA refuses the credentials", async () => {
    const { org, sync } = await setUp();
    const saved = vendor.saved();
    vendor.breakCredentials();
    try {
      await sync();
      expect(await getPsaConnection(db, org.partner.id)).toMatchObject({ state: "failing", lastError: expect.stringContaining("401") });
      expect((await testPsaConnection(db, org.partner.id)).ok).toBe(false);
    } finally {
      vendor.restoreCredentials(saved as never);
    }
    expect(await testPsaConnection(db, org.partner.id)).toEqual({ ok: true, error: null });
  });
});
