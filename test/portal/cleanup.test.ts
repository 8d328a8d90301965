import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deleteSpentSignInRecords } from "../../server/portal/cleanup";
import { consumeMagicLink, createMagicLink } from "../../server/portal/magic-links";
import { hashSecretToken } from "../../server/secret-tokens";
import { refreshPortalSession } from "../../server/portal/sessions";
import { jobCatalogue } from "../../server/startup/job-catalogue";
import { createTestCustomer } from "../helpers/customers";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";

let testDb: TestDatabase;
let org: TestOrg;

beforeAll(async () => {
  testDb = await createTestDatabase();
  org = await createTestOrg(testDb.db, "Cleanup");
});
afterAll(async () => {
  await testDb?.close();
});

async function linkToken(customerId: string) {
  return new URL((await createMagicLink(testDb.db, org.partner.id, customerId)).url).searchParams.get("token_hash")!;
}

describe("deleteSpentSignInRecords", () => {
  it("deletes links and sessions spent for more than 30 days, and keeps everything else", async () => {
    const customerId = await createTestCustomer(testDb.db, org.partner.id);
    await linkToken(customerId); // unused, valid
    const usedLongAgo = await linkToken(customerId);
    const signIn = await consumeMagicLink(testDb.db, usedLongAgo);
    if (!signIn.ok) throw new Error("sign-in refused");
    const live = await consumeMagicLink(testDb.db, await linkToken(customerId));
    if (!live.ok) throw new Error("sign-in refused");
    await refreshPortalSession(testDb.db, live.signIn.sessionId, live.signIn.refreshToken);

    await testDb.db
      .$executeRaw`UPDATE magic_link_tokens SET used_at = now() - interval '31 days' WHERE token_hash = ${hashSecretToken(usedLongAgo)}`;
    await testDb.db
      .$executeRaw`UPDATE portal_sessions SET ended_at = now() - interval '31 days' WHERE id = ${signIn.signIn.sessionId}::uuid`;

    expect(await deleteSpentSignInRecords(testDb.db)).toEqual({ links: 1, sessions: 1 });
    expect(await testDb.db.magicLinkToken.count({ where: { portalUser: { customerId } } })).toBe(2);
    expect(await testDb.db.portalSession.findMany({ where: { portalUser: { customerId } }, select: { id: true } })).toEqual([
      { id: live.signIn.sessionId },
    ]);
    // the live session keeps its rotated token, so a replay is still caught as reuse
    expect(await testDb.db.portalRefreshToken.count({ where: { sessionId: live.signIn.sessionId } })).toBe(2);
    expect(await deleteSpentSignInRecords(testDb.db)).toEqual({ links: 0, sessions: 0 });
  });

  it("runs daily as the portal-cleanup schedule", () => {
    expect(jobCatalogue.kinds).toContain("portal.cleanup");
    expect(jobCatalogue.schedules.find((schedule) => schedule.name === "portal-cleanup")).toMatchObject({ every: "day", hourUtc: 3 });
  });
});
