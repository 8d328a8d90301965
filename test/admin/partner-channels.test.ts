import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { UiSession } from "../../server/api/ui/session";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { createStaffSession, uiCallerAs } from "../helpers/ui";

/** The partner page's chat and SIEM channels (issue 41 item 4): list, add, test, remove, scoped to the distributor. */
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

describe("admin UI: a partner's channels", () => {
  it("adds, lists, tests and removes a channel, the URL masked", async () => {
    const caller = uiCallerAs(testDb.db, staffX);
    const partnerId = orgX.partner.id;
    const created = await caller.admin.channels.create({
      partnerId,
      type: "teams",
      url: "http://127.0.0.1:9/workflows/s3cr3t",
      eventTypes: ["customer.breach.found"],
      minSeverity: "medium",
      digest: "daily",
    });
    expect(created).toMatchObject({
      type: "teams",
      url: "http://127.0.0.1:9/workflows/…",
      minSeverity: "medium",
      digest: "daily",
      enabled: true,
    });
    expect((await caller.admin.channels.list({ partnerId })).map((channel) => channel.id)).toEqual([created.id]);
    expect(await caller.admin.channels.sendTest({ partnerId, id: created.id })).toMatchObject({
      test: true,
      eventType: "customer.breach.found",
    });
    expect(await caller.admin.channels.delete({ partnerId, id: created.id })).toEqual({ deleted: true });
    expect(await caller.admin.channels.list({ partnerId })).toEqual([]);
  });

  it("another distributor's partner is not found", async () => {
    const caller = uiCallerAs(testDb.db, staffX);
    await expect(caller.admin.channels.list({ partnerId: orgY.partner.id })).rejects.toThrow("Partner not found");
    await expect(
      caller.admin.channels.create({
        partnerId: orgY.partner.id,
        type: "slack",
        url: "http://127.0.0.1:9/x",
        eventTypes: ["customer.created"],
      }),
    ).rejects.toThrow("Partner not found");
  });
});
