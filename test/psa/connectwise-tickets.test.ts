import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "../../server/db/client";
import { muteNotices } from "../../server/customers/mutes";
import { setBreachResolved } from "../../server/findings/instances";
import { getPsaConnection, mapCustomerToPsaCompany, savePsaConnection, testPsaConnection } from "../../server/psa/connections";
import { runPsaSync } from "../../server/psa/jobs";
import { ticketKeyOf } from "../../server/psa/ticket-text";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { FakeConnectWise } from "../helpers/psa-fakes";
import { connectionIdOf, customerWithBreach } from "./support";

/**
 * ConnectWise PSA end to end against the stateful fake (every request and answer checked
 * against ConnectWise's published description): one ticket per customer and breach listing the
 * active mailboxes, a note for a mailbox found later, the close both ways, and the failure drills
 * (429 with Retry-After, 500, a time-out, a lost answer, a crash between recording and sending,
 * two runs at once): exactly one ticket each time.
 */
const credentials = { companyId: "acme_msp", publicKey: "pub-key-1", privateKey: `priv-${randomUUID()}`, clientId: randomUUID() };
const COMPANY = "250";
let testDb: TestDatabase;
let db: Db;
let psa: FakeConnectWise;
let org: TestOrg;
const savedEnv = { ...process.env };

beforeAll(async () => {
  testDb = await createTestDatabase();
  db = testDb.db;
  psa = await new FakeConnectWise(credentials).start();
  Object.assign(process.env, { WEBHOOK_ALLOW_PRIVATE_URLS: "true", WEBHOOK_RETRY_BASE_MS: "10", PSA_REQUEST_TIMEOUT_MS: "2000" });
});
afterAll(async () => {
  process.env = savedEnv;
  await psa?.close();
  await testDb?.close();
});
beforeEach(async () => {
  org = await createTestOrg(db, "PSA");
  psa.tickets.clear();
  psa.credentials = credentials;
  await savePsaConnection(db, org.partner.id, { provider: "connectwise", site: psa.baseUrl, ...credentials, boardId: psa.boardId });
});
afterEach(() => {
  expect(psa.violations).toEqual([]);
  psa.violations.length = 0;
});

async function sync() {
  await runPsaSync(db, await connectionIdOf(db, org.partner.id));
}
async function mappedBreach(options: { sensitive?: boolean } = {}) {
  const found = await customerWithBreach(db, org.partner.id, options);
  await mapCustomerToPsaCompany(db, org.partner.id, found.customerId, COMPANY);
  return { ...found, key: ticketKeyOf(found.instanceId, "") };
}
/** Lets the retry come due at once (the schedule itself is tested in the webhook suites). */
async function retryNow() {
  await db.psaTicket.updateMany({ data: { nextAttemptAt: new Date(Date.now() - 1000) } });
}

describe("ConnectWise PSA tickets", () => {
  it("waits for the mapping, then opens one ticket per customer and breach listing only the active mailboxes", async () => {
    const found = await customerWithBreach(db, org.partner.id);
    await sync();
    expect(psa.tickets.size).toBe(0);
    await mapCustomerToPsaCompany(db, org.partner.id, found.customerId, COMPANY);
    await sync();
    await sync();
    const [ticket, ...others] = psa.ticketsWithKey(ticketKeyOf(found.instanceId, ""));
    expect(others).toEqual([]);
    expect(ticket!.companyId).toBe(250);
    for (const email of found.emails) expect(ticket!.description).toContain(email);
    expect(ticket!.description).not.toContain(found.left);
    expect(ticket!.description).toMatch(/Steps to take:\n1\. Reset the password/);
    expect(ticket!.priority).toMatchObject({ severity: "High", impact: "High", board: { id: psa.boardId } });
    const row = await db.psaTicket.findFirstOrThrow({ where: { breachInstanceId: found.instanceId } });
    expect(row).toMatchObject({ externalId: String(ticket!.id), mailboxesSent: found.emails, createAttempts: 1 });
  });

  it("leaves a muted mailbox out of the ticket, and opens none when every mailbox is muted", async () => {
    const found = await mappedBreach();
    const [muted, ...kept] = found.emails;
    await muteNotices(db, found.customerId, { email: muted!, mutedBy: "partner" });
    await sync();
    const [ticket] = psa.ticketsWithKey(found.key);
    expect(ticket!.description).not.toContain(muted!);
    for (const email of kept) expect(ticket!.description).toContain(email);

    const all = await mappedBreach();
    await muteNotices(db, all.customerId, { breachId: all.instanceId, mutedBy: "customer" });
    await sync();
    expect(psa.ticketsWithKey(all.key)).toEqual([]);
  });

  it("gives a breach without passwords or sensitivity the normal severity", async () => {
    const found = await mappedBreach({ sensitive: false });
    await sync();
    expect(psa.ticketsWithKey(found.key)[0]!.priority).toMatchObject({ severity: "Medium", impact: "Medium" });
  });

  it("adds a note for a mailbox found later, to the same ticket", async () => {
    const found = await mappedBreach();
    await sync();
    const later = `carol@${found.tag}.example`;
    await db.customerBreach.update({ where: { id: found.instanceId }, data: { emails: { push: later } } });
    await sync();
    await sync();
    const [ticket, ...others] = psa.ticketsWithKey(found.key);
    expect(others).toEqual([]);
    expect(ticket!.notes).toEqual([expect.stringContaining(later)]);
  });

  it("closes the ticket with a note when the breach is resolved, and resolves the breach when the ticket is closed in the PSA", async () => {
    const first = await mappedBreach();
    const second = await mappedBreach();
    await sync();
    await setBreachResolved(db, org.partner.id, { breachInstanceId: first.instanceId, resolved: true });
    await sync();
    const closedByService = psa.ticketsWithKey(first.key)[0]!;
    expect(closedByService.closed).toBe(true);
    expect(closedByService.notes.at(-1)).toContain("marked resolved");

    psa.closeInPsa(psa.ticketsWithKey(second.key)[0]!.id);
    await db.psaConnection.updateMany({ data: { lastPolledAt: null } });
    await sync();
    const instance = await db.customerBreach.findUniqueOrThrow({ where: { id: second.instanceId } });
    expect(instance.resolved).toBe(true);
    const events = await db.outboxEvent.findMany({ where: { customerId: second.customerId, type: "customer.breach.resolved" } });
    expect(events).toHaveLength(1);
    expect(await db.psaTicket.findFirstOrThrow({ where: { breachInstanceId: second.instanceId } })).toMatchObject({ closedBy: "psa" });
  });

  it("opens one ticket per mailbox when the connection asks for it", async () => {
    await savePsaConnection(db, org.partner.id, {
      provider: "connectwise",
      site: psa.baseUrl,
      ...credentials,
      boardId: psa.boardId,
      ticketPerMailbox: true,
    });
    const found = await mappedBreach();
    await sync();
    expect(psa.tickets.size).toBe(2);
    for (const email of found.emails) expect(psa.ticketsWithKey(ticketKeyOf(found.instanceId, email))).toHaveLength(1);
  });
});

describe("ConnectWise PSA digest", () => {
  it("writes new tickets and notes once per slot: still one ticket per customer and breach, each mailbox once", async () => {
    await savePsaConnection(db, org.partner.id, {
      provider: "connectwise",
      site: psa.baseUrl,
      ...credentials,
      boardId: psa.boardId,
      digest: "daily",
    });
    expect((await getPsaConnection(db, org.partner.id)).digest).toBe("daily");
    const found = await mappedBreach();
    await sync();
    await sync();
    expect(psa.tickets.size).toBe(0);
    const slotPassed = () => db.psaConnection.updateMany({ where: { partnerId: org.partner.id }, data: { lastDigestSlot: "2000-01-01" } });

    await slotPassed();
    await sync();
    await sync();
    const [ticket, ...others] = psa.ticketsWithKey(found.key);
    expect(others).toEqual([]);
    for (const email of found.emails) expect(ticket!.description).toContain(email);

    const later = [`gil@${found.tag}.example`, `hal@${found.tag}.example`];
    for (const email of later) {
      await db.customerBreach.update({ where: { id: found.instanceId }, data: { emails: { push: email } } });
      await sync();
    }
    expect(ticket!.notes).toEqual([]);
    await slotPassed();
    await sync();
    await sync();
    expect(ticket!.notes).toEqual([expect.stringContaining(later[0]!)]);
    expect(ticket!.notes[0]).toContain(later[1]!);

    // resolving still closes at once: a digest delays news, not the close
    await setBreachResolved(db, org.partner.id, { breachInstanceId: found.instanceId, resolved: true });
    await sync();
    expect(ticket!.closed).toBe(true);
    expect(psa.ticketsWithKey(found.key)).toHaveLength(1);
  });
});

describe("ConnectWise PSA failure drills: exactly one ticket", () => {
  it("429 with Retry-After: waits at least as long as asked, then opens the ticket", async () => {
    const found = await mappedBreach();
    psa.server.fail("POST /service/tickets", {
      status: 429,
      headers: { "retry-after": "120" },
      body: { code: "TooManyRequests", message: "slow down" },
    });
    const before = Date.now();
    await sync();
    const row = await db.psaTicket.findFirstOrThrow({ where: { breachInstanceId: found.instanceId } });
    expect(row.externalId).toBeNull();
    expect(row.nextAttemptAt!.getTime() - before).toBeGreaterThanOrEqual(119_000);
    expect(row.lastError).toContain("ConnectWise answered 429");
    await sync();
    expect(psa.tickets.size).toBe(0);
    await retryNow();
    await sync();
    expect(psa.ticketsWithKey(found.key)).toHaveLength(1);
  });

  it("500: retried on the schedule, one ticket", async () => {
    const found = await mappedBreach();
    psa.server.fail("POST /service/tickets", { status: 500, body: { code: "InternalError", message: "boom" } }, { status: 503, body: {} });
    await sync();
    await retryNow();
    await sync();
    await retryNow();
    await sync();
    expect(psa.ticketsWithKey(found.key)).toHaveLength(1);
    expect(await db.psaTicket.findFirstOrThrow({ where: { breachInstanceId: found.instanceId } })).toMatchObject({
      failures: 0,
      createAttempts: 3,
    });
  });

  it("a time-out before the PSA made the ticket: the retry searches, finds none, opens one", async () => {
    const found = await mappedBreach();
    psa.server.fail("POST /service/tickets", { delayMs: 3500, status: 504, body: {} });
    await sync();
    expect((await db.psaTicket.findFirstOrThrow({ where: { breachInstanceId: found.instanceId } })).lastError).toContain(
      "did not answer within 2000 ms",
    );
    await new Promise((resolve) => setTimeout(resolve, 1800)); // the fake's late answer, to nobody
    await retryNow();
    await sync();
    expect(psa.ticketsWithKey(found.key)).toHaveLength(1);
    expect(psa.server.count("GET /service/tickets")).toBeGreaterThanOrEqual(1);
  });

  it("the answer lost after the PSA made the ticket: reconciled by searching for the key, never sent twice", async () => {
    const found = await mappedBreach();
    const posts = psa.server.count("POST /service/tickets");
    psa.server.fail("POST /service/tickets", { lose: true });
    await sync();
    expect(psa.ticketsWithKey(found.key)).toHaveLength(1);
    expect((await db.psaTicket.findFirstOrThrow({ where: { breachInstanceId: found.instanceId } })).externalId).toBeNull();
    await retryNow();
    await sync();
    expect(psa.ticketsWithKey(found.key)).toHaveLength(1);
    expect(psa.server.count("POST /service/tickets") - posts).toBe(1);
    const row = await db.psaTicket.findFirstOrThrow({ where: { breachInstanceId: found.instanceId } });
    expect(row.externalId).toBe(String(psa.ticketsWithKey(found.key)[0]!.id));
  });

  it("a crash between recording and sending: the next run (after the claim runs out) opens the one ticket", async () => {
    const found = await mappedBreach();
    // What a process that died right after its claim committed leaves behind.
    const { recordTickets } = await import("../../server/psa/sync");
    await recordTickets(db, await db.psaConnection.findUniqueOrThrow({ where: { partnerId: org.partner.id } }));
    await db.psaTicket.updateMany({
      where: { breachInstanceId: found.instanceId },
      data: { createAttempts: 1, claimedUntil: new Date(Date.now() + 60_000) },
    });
    await sync();
    expect(psa.tickets.size).toBe(0);
    await db.psaTicket.updateMany({ data: { claimedUntil: new Date(Date.now() - 1000) } });
    await sync();
    expect(psa.ticketsWithKey(found.key)).toHaveLength(1);
  });

  it("a note whose answer was lost: the retry finds it by its reference and never adds it twice", async () => {
    const found = await mappedBreach();
    await sync();
    const later = `carol@${found.tag}.example`;
    await db.customerBreach.update({ where: { id: found.instanceId }, data: { emails: { push: later } } });
    psa.server.fail("POST /service/tickets/{parentId}/notes", { lose: true });
    await sync();
    const row = await db.psaTicket.findFirstOrThrow({ where: { breachInstanceId: found.instanceId } });
    expect(row).toMatchObject({ pendingNoteMailboxes: [later], noteAttempts: 1, mailboxesSent: found.emails });
    // Meanwhile another mailbox turns up: it gets a note of its own, after the lost one is settled.
    const latest = `dave@${found.tag}.example`;
    await db.customerBreach.update({ where: { id: found.instanceId }, data: { emails: { push: latest } } });
    await retryNow();
    await sync();
    const [ticket] = psa.ticketsWithKey(found.key);
    expect(ticket!.notes).toEqual([expect.stringContaining(later), expect.stringContaining(latest)]);
    expect(ticket!.notes[0]).toContain(`Reference: ${row.pendingNoteKey}`);
    expect(ticket!.notes[1]).not.toContain(later);
    expect(psa.server.count("GET /service/tickets/{parentId}/notes")).toBeGreaterThanOrEqual(1);
    expect(await db.psaTicket.findFirstOrThrow({ where: { breachInstanceId: found.instanceId } })).toMatchObject({
      pendingNoteKey: null,
      mailboxesSent: [...found.emails, later, latest].sort(),
    });
  });

  it("a note lost before it reached the PSA is sent on the retry, once", async () => {
    const found = await mappedBreach();
    await sync();
    await db.customerBreach.update({ where: { id: found.instanceId }, data: { emails: { push: `erin@${found.tag}.example` } } });
    psa.server.fail("POST /service/tickets/{parentId}/notes", { status: 503, body: {} });
    await sync();
    await retryNow();
    await sync();
    expect(psa.ticketsWithKey(found.key)[0]!.notes).toEqual([expect.stringContaining(`erin@${found.tag}.example`)]);
  });

  it("the closing note's answer lost: the retry finds the note and only sets the closed status", async () => {
    const found = await mappedBreach();
    await sync();
    await setBreachResolved(db, org.partner.id, { breachInstanceId: found.instanceId, resolved: true });
    psa.server.fail("POST /service/tickets/{parentId}/notes", { lose: true });
    await sync();
    expect(psa.ticketsWithKey(found.key)[0]!.closed).toBe(false);
    await retryNow();
    await sync();
    const [ticket] = psa.ticketsWithKey(found.key);
    expect(ticket!.closed).toBe(true);
    expect(ticket!.notes).toEqual([expect.stringContaining("marked resolved")]);
  });

  it("two runs at once (two replicas): one ticket", async () => {
    const found = await mappedBreach();
    const connectionId = await connectionIdOf(db, org.partner.id);
    await Promise.all([runPsaSync(db, connectionId), runPsaSync(db, connectionId), runPsaSync(db, connectionId)]);
    await sync();
    expect(psa.ticketsWithKey(found.key)).toHaveLength(1);
  });

  it("401 marks the connection failing and sends nothing more until a test succeeds", async () => {
    const found = await mappedBreach();
    psa.credentials = { ...credentials, privateKey: "rotated" };
    await sync();
    const failing = await getPsaConnection(db, org.partner.id);
    expect(failing).toMatchObject({ state: "failing", lastError: expect.stringContaining("ConnectWise answered 401") });
    const calls = psa.server.calls.length;
    await sync();
    expect(psa.server.calls.length).toBe(calls);
    expect(await testPsaConnection(db, org.partner.id)).toMatchObject({ ok: false, error: expect.stringContaining("401") });
    psa.credentials = credentials;
    expect(await testPsaConnection(db, org.partner.id)).toEqual({ ok: true, error: null });
    expect((await getPsaConnection(db, org.partner.id)).state).toBe("ok");
    await sync();
    expect(psa.ticketsWithKey(found.key)).toHaveLength(1);
  });
});
