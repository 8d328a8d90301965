import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { UiSession } from "../../server/api/ui/session";
import { markPsaFailing, savePsaConnection } from "../../server/psa/connections";
import { createTestCustomer } from "../helpers/customers";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { FakeConnectWise } from "../helpers/psa-fakes";
import { createStaffSession, uiCallerAs } from "../helpers/ui";

/**
 * The partner page's PSA connection (issue 41 item 1): its state visible, with the failing reason;
 * staff with the admin role connect it, edit it (secrets write-only: a blank one keeps the stored
 * secret, but never for a changed address), run the test (what failed and why), remove it, and
 * map customers to PSA companies. Against the stateful ConnectWise fake.
 */
const credentials = { companyId: "acme_msp", publicKey: "pub-key-1", privateKey: `priv-${randomUUID()}`, clientId: randomUUID() };
let testDb: TestDatabase;
let orgX: TestOrg;
let orgY: TestOrg;
let staffX: UiSession;
let psa: FakeConnectWise;

beforeAll(async () => {
  vi.stubEnv("WEBHOOK_ALLOW_PRIVATE_URLS", "true");
  testDb = await createTestDatabase();
  psa = await new FakeConnectWise(credentials).start();
  orgX = await createTestOrg(testDb.db, "X");
  orgY = await createTestOrg(testDb.db, "Y");
  staffX = await createStaffSession(testDb.db, orgX.distributor.id, "admin");
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await psa?.close();
  await testDb?.close();
});

describe("admin UI: a partner's PSA connection", () => {
  it("shows none, then the connection without its secrets, then that the PSA refused the credentials", async () => {
    const caller = uiCallerAs(testDb.db, staffX);
    const partnerId = orgY.partner.id;
    const staffY = await createStaffSession(testDb.db, orgY.distributor.id, "viewer");
    const callerY = uiCallerAs(testDb.db, staffY);
    expect(await callerY.admin.psa.get({ partnerId })).toBeNull();

    const privateKey = "private-key-never-shown";
    await savePsaConnection(testDb.db, partnerId, {
      provider: "connectwise",
      site: "http://127.0.0.1:9",
      companyId: "acme_msp",
      publicKey: "pub",
      privateKey,
      clientId: "0f8fad5b-d9cb-469f-a165-70867728950e",
      boardId: 1,
    });
    const connected = await callerY.admin.psa.get({ partnerId });
    expect(connected).toMatchObject({ provider: "connectwise", baseUrl: "http://127.0.0.1:9", state: "ok", openTickets: 0 });
    expect(connected!.fields).toMatchObject({ site: "http://127.0.0.1:9", companyId: "acme_msp", boardId: 1 });
    expect(JSON.stringify(connected)).not.toContain(privateKey);
    expect(JSON.stringify(connected)).not.toContain('"pub"');

    const { id } = await testDb.db.psaConnection.findUniqueOrThrow({ where: { partnerId }, select: { id: true } });
    await markPsaFailing(testDb.db, id, "ConnectWise answered 401: Authentication failed");
    expect(await callerY.admin.psa.get({ partnerId })).toMatchObject({
      state: "failing",
      failingSince: expect.any(String),
      lastError: "ConnectWise answered 401: Authentication failed",
    });
    await expect(caller.admin.psa.get({ partnerId })).rejects.toThrow("Partner not found");
  });

  it("connects with the API's checks, runs the test with what failed and why, and keeps blank secrets on edit", async () => {
    const caller = uiCallerAs(testDb.db, staffX);
    const partnerId = orgX.partner.id;
    const base = {
      partnerId,
      provider: "connectwise" as const,
      site: psa.baseUrl,
      companyId: credentials.companyId,
      clientId: credentials.clientId,
    };

    // The API's rules: the provider's fields required, a secret included.
    await expect(caller.admin.psa.save({ ...base, boardId: psa.boardId, publicKey: credentials.publicKey })).rejects.toThrow(
      "Validation failed: privateKey: Required for the connectwise provider",
    );
    await expect(caller.admin.psa.save({ ...base, boardId: -1 })).rejects.toMatchObject({ code: "BAD_REQUEST" });

    // A wrong private key: saved, and the test says the PSA refused it (and marks the connection failing).
    const saved = await caller.admin.psa.save({ ...base, boardId: psa.boardId, publicKey: credentials.publicKey, privateKey: "wrong" });
    expect(saved).toMatchObject({ provider: "connectwise", state: "ok", fields: { boardId: psa.boardId, ticketPerMailbox: false } });
    expect(JSON.stringify(saved)).not.toContain(credentials.publicKey);
    const refused = await caller.admin.psa.test({ partnerId });
    expect(refused).toEqual({ ok: false, error: expect.stringMatching(/^ConnectWise answered 401: .*Authentication failed/) });
    expect(await caller.admin.psa.get({ partnerId })).toMatchObject({ state: "failing", lastError: refused.error });

    // The right key, then an edit of another field with the secrets left blank: the stored ones are kept.
    await caller.admin.psa.save({ ...base, boardId: psa.boardId, publicKey: credentials.publicKey, privateKey: credentials.privateKey });
    await caller.admin.psa.save({ ...base, boardId: psa.boardId, ticketPerMailbox: true, priorityIds: { high: 4 }, digest: "weekly" });
    expect(await caller.admin.psa.get({ partnerId })).toMatchObject({
      ticketPerMailbox: true,
      digest: "weekly",
      fields: { ticketPerMailbox: true, priorityIds: { high: 4 }, digest: "weekly" },
    });
    expect(await caller.admin.psa.test({ partnerId })).toEqual({ ok: true, error: null });

    // A wrong board: the test names it.
    await caller.admin.psa.save({ ...base, boardId: 999 });
    expect(await caller.admin.psa.test({ partnerId })).toEqual({ ok: false, error: expect.stringContaining("404") });

    // A changed address never gets the stored secrets: they must be given again.
    await expect(caller.admin.psa.save({ ...base, site: "http://127.0.0.2:9", boardId: psa.boardId })).rejects.toThrow(
      "Validation failed: publicKey: Required when the address changes",
    );
    // Another provider starts over: its secrets are required.
    await expect(
      caller.admin.psa.save({ partnerId, provider: "halopsa", url: psa.baseUrl, clientId: "halo-client", ticketTypeId: 3 }),
    ).rejects.toThrow("Validation failed: clientSecret: Required for the halopsa provider");
    const stored = await testDb.db.psaConnection.findUniqueOrThrow({ where: { partnerId } });
    expect(stored.credentialsCiphertext).not.toContain(credentials.privateKey);
  });

  it("maps a customer to its PSA company; another distributor's customer is not found", async () => {
    const caller = uiCallerAs(testDb.db, staffX);
    const customerId = await createTestCustomer(testDb.db, orgX.partner.id);
    expect(await caller.admin.psa.mapCustomer({ customerId, companyId: " 250 " })).toEqual({ customerId, companyId: "250" });
    expect(await caller.admin.customers.get({ customerId })).toMatchObject({ psa: { provider: "connectwise", companyId: "250" } });
    await expect(caller.admin.psa.mapCustomer({ customerId, companyId: "" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    const elsewhere = await createTestCustomer(testDb.db, orgY.partner.id);
    await expect(caller.admin.psa.mapCustomer({ customerId: elsewhere, companyId: "1" })).rejects.toThrow("Customer not found");
    expect(await testDb.db.psaCustomerCompany.count({ where: { customerId: elsewhere } })).toBe(0);
  });

  it("removes the connection; another distributor's partner is not found", async () => {
    const caller = uiCallerAs(testDb.db, staffX);
    await expect(caller.admin.psa.remove({ partnerId: orgY.partner.id })).rejects.toThrow("Partner not found");
    await expect(caller.admin.psa.test({ partnerId: orgY.partner.id })).rejects.toThrow("Partner not found");
    expect(await caller.admin.psa.remove({ partnerId: orgX.partner.id })).toEqual({ removed: true });
    expect(await caller.admin.psa.get({ partnerId: orgX.partner.id })).toBeNull();
    await expect(caller.admin.psa.remove({ partnerId: orgX.partner.id })).rejects.toThrow("No PSA connected");
    expect(psa.violations).toEqual([]);
  });
});
