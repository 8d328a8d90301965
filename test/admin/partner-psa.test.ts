import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { UiSession } from "../../server/api/ui/session";
import { markPsaFailing, savePsaConnection } from "../../server/psa/connections";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { createStaffSession, uiCallerAs } from "../helpers/ui";

/** The partner page's PSA connection (issue 41 item 2): read-only, its failing state visible, no secret shown. */
let testDb: TestDatabase;
let orgX: TestOrg;
let orgY: TestOrg;
let staffX: UiSession;

beforeAll(async () => {
  vi.stubEnv("WEBHOOK_ALLOW_PRIVATE_URLS", "true");
  testDb = await createTestDatabase();
  orgX = await createTestOrg(testDb.db, "X");
  orgY = await createTestOrg(testDb.db, "Y");
  staffX = await createStaffSession(testDb.db, orgX.distributor.id);
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await testDb?.close();
});

describe("admin UI: a partner's PSA connection", () => {
  it("shows none, then the connection without its secrets, then that the PSA refused the credentials", async () => {
    const caller = uiCallerAs(testDb.db, staffX);
    const partnerId = orgX.partner.id;
    expect(await caller.admin.psa.get({ partnerId })).toBeNull();

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
    const connected = await caller.admin.psa.get({ partnerId });
    expect(connected).toMatchObject({ provider: "connectwise", baseUrl: "http://127.0.0.1:9", state: "ok", openTickets: 0 });
    expect(JSON.stringify(connected)).not.toContain(privateKey);

    const { id } = await testDb.db.psaConnection.findUniqueOrThrow({ where: { partnerId }, select: { id: true } });
    await markPsaFailing(testDb.db, id, "ConnectWise answered 401: Authentication failed");
    expect(await caller.admin.psa.get({ partnerId })).toMatchObject({
      state: "failing",
      failingSince: expect.any(String),
      lastError: "ConnectWise answered 401: Authentication failed",
    });
  });

  it("answers Partner not found for another distributor's partner", async () => {
    await expect(uiCallerAs(testDb.db, staffX).admin.psa.get({ partnerId: orgY.partner.id })).rejects.toThrow("Partner not found");
  });
});
