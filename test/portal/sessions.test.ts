import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { transitionCustomer } from "../../server/customers/lifecycle";
import { consumeMagicLink, createMagicLink } from "../../server/portal/magic-links";
import {
  ACCESS_TOKEN_SECONDS,
  endPortalSession,
  isAccessExpired,
  isPortalSessionLive,
  refreshPortalSession,
  REFRESH_REUSE_GRACE_SECONDS,
  SESSION_MAX_SECONDS,
  type PortalSignIn,
} from "../../server/portal/sessions";
import { createTestCustomer } from "../helpers/customers";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";

let testDb: TestDatabase;
let org: TestOrg;

beforeAll(async () => {
  testDb = await createTestDatabase();
  org = await createTestOrg(testDb.db, "Sessions");
});
afterAll(async () => {
  await testDb?.close();
});

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

async function signIn(customerId?: string): Promise<PortalSignIn> {
  const id = customerId ?? (await createTestCustomer(testDb.db, org.partner.id));
  const { url } = await createMagicLink(testDb.db, org.partner.id, id);
  const result = await consumeMagicLink(testDb.db, new URL(url).searchParams.get("token_hash")!);
  if (!result.ok) throw new Error(`sign-in refused: ${result.reason}`);
  return result.signIn;
}

/** Moves a rotated token's rotation back in time, past the grace period for concurrent refreshes. */
async function ageRotation(token: string) {
  await testDb.db.$executeRaw`
    UPDATE portal_refresh_tokens SET rotated_at = now() - make_interval(secs => ${REFRESH_REUSE_GRACE_SECONDS + 1})
    WHERE token_hash = ${sha256(token)}`;
}

describe("sign-in", () => {
  it("issues a refresh token stored as its SHA-256, an access token of one hour and a session of at most seven days", async () => {
    const before = Date.now();
    const session = await signIn();
    const row = await testDb.db.portalRefreshToken.findUniqueOrThrow({ where: { tokenHash: sha256(session.refreshToken) } });
    expect(row.sessionId).toBe(session.sessionId);
    expect(row.rotatedAt).toBeNull();
    expect(session.refreshToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(session.accessExpiresAt.getTime()).toBeGreaterThanOrEqual(before + ACCESS_TOKEN_SECONDS * 1000 - 1000);
    expect(session.accessExpiresAt.getTime()).toBeLessThanOrEqual(Date.now() + ACCESS_TOKEN_SECONDS * 1000 + 1000);
    const stored = await testDb.db.portalSession.findUniqueOrThrow({ where: { id: session.sessionId } });
    expect(stored.expiresAt.getTime() - stored.createdAt.getTime()).toBe(SESSION_MAX_SECONDS * 1000);
    expect(await isPortalSessionLive(testDb.db, session.sessionId, session.customerId)).toBe(true);
  });
});

describe("refresh", () => {
  it("rotates the refresh token on every refresh: a new token and a new access expiry; the old one is marked rotated", async () => {
    const session = await signIn();
    const first = await refreshPortalSession(testDb.db, session.sessionId, session.refreshToken);
    expect(first).toMatchObject({ ok: true, refreshToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    if (!first.ok) throw new Error("unreachable");
    expect(first.refreshToken).not.toBe(session.refreshToken);
    const old = await testDb.db.portalRefreshToken.findUniqueOrThrow({ where: { tokenHash: sha256(session.refreshToken) } });
    expect(old.rotatedAt).toBeInstanceOf(Date);

    const second = await refreshPortalSession(testDb.db, session.sessionId, first.refreshToken);
    expect(second.ok).toBe(true);
    if (!second.ok) throw new Error("unreachable");
    expect(second.refreshToken).not.toBe(first.refreshToken);
    expect(await testDb.db.portalRefreshToken.count({ where: { sessionId: session.sessionId } })).toBe(3);
    expect((await testDb.db.portalSession.findUniqueOrThrow({ where: { id: session.sessionId } })).lastRefreshedAt).toBeInstanceOf(Date);
  });

  it("reuse of a rotated refresh token ends the whole session: the current token stops working too", async () => {
    const session = await signIn();
    const rotated = await refreshPortalSession(testDb.db, session.sessionId, session.refreshToken);
    if (!rotated.ok) throw new Error("refresh refused");
    await ageRotation(session.refreshToken);

    expect(await refreshPortalSession(testDb.db, session.sessionId, session.refreshToken)).toEqual({ ok: false, reason: "reused" });
    const stored = await testDb.db.portalSession.findUniqueOrThrow({ where: { id: session.sessionId } });
    expect(stored).toMatchObject({ endedAt: expect.any(Date), endReason: "refresh-token-reuse" });
    expect(await refreshPortalSession(testDb.db, session.sessionId, rotated.refreshToken)).toEqual({ ok: false, reason: "ended" });
    expect(await isPortalSessionLive(testDb.db, session.sessionId, session.customerId)).toBe(false);
  });

  it("concurrent refreshes with one token all receive its one successor, and nothing is revoked", async () => {
    const session = await signIn();
    const results = await Promise.all(
      Array.from({ length: 4 }, () => refreshPortalSession(testDb.db, session.sessionId, session.refreshToken)),
    );
    const tokens = new Set(results.map((result) => (result.ok ? result.refreshToken : result.reason)));
    expect(tokens.size).toBe(1);
    expect(results.every((result) => result.ok)).toBe(true);
    expect(await testDb.db.portalRefreshToken.count({ where: { sessionId: session.sessionId } })).toBe(2);
    expect(await isPortalSessionLive(testDb.db, session.sessionId, session.customerId)).toBe(true);
    // the successor rotates on as usual
    const [successor] = [...tokens];
    const next = await refreshPortalSession(testDb.db, session.sessionId, successor!);
    expect(next.ok && next.refreshToken !== successor).toBe(true);
  });

  it("refuses an expired refresh token and unknown or malformed ones", async () => {
    const session = await signIn();
    await testDb.db.$executeRaw`
      UPDATE portal_refresh_tokens SET expires_at = now() - interval '1 second' WHERE token_hash = ${sha256(session.refreshToken)}`;
    expect(await refreshPortalSession(testDb.db, session.sessionId, session.refreshToken)).toEqual({ ok: false, reason: "expired" });
    expect(await refreshPortalSession(testDb.db, session.sessionId, "B".repeat(43))).toEqual({ ok: false, reason: "invalid" });
    expect(await refreshPortalSession(testDb.db, "not-a-uuid", session.refreshToken)).toEqual({ ok: false, reason: "invalid" });
    expect(await refreshPortalSession(testDb.db, session.sessionId, "short")).toEqual({ ok: false, reason: "invalid" });
  });

  it("a token of one session does not refresh another", async () => {
    const one = await signIn();
    const other = await signIn();
    expect(await refreshPortalSession(testDb.db, other.sessionId, one.refreshToken)).toEqual({ ok: false, reason: "invalid" });
    expect(await isPortalSessionLive(testDb.db, one.sessionId, one.customerId)).toBe(true);
  });

  it("never refreshes past the session's hard end", async () => {
    const session = await signIn();
    await testDb.db
      .$executeRaw`UPDATE portal_sessions SET expires_at = now() + interval '10 minutes' WHERE id = ${session.sessionId}::uuid`;
    const refreshed = await refreshPortalSession(testDb.db, session.sessionId, session.refreshToken);
    if (!refreshed.ok) throw new Error("refresh refused");
    expect(refreshed.accessExpiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 10 * 60 * 1000 + 1000);
    await testDb.db.$executeRaw`UPDATE portal_sessions SET expires_at = now() - interval '1 second' WHERE id = ${session.sessionId}::uuid`;
    expect(await refreshPortalSession(testDb.db, session.sessionId, refreshed.refreshToken)).toEqual({ ok: false, reason: "ended" });
    expect(await isPortalSessionLive(testDb.db, session.sessionId, session.customerId)).toBe(false);
  });
});

describe("ending sessions", () => {
  it("sign-out ends the session: it is no longer live and cannot be refreshed", async () => {
    const session = await signIn();
    const sibling = await signIn(session.customerId);
    await endPortalSession(testDb.db, session.sessionId, "sign-out");
    expect(await isPortalSessionLive(testDb.db, session.sessionId, session.customerId)).toBe(false);
    expect(await refreshPortalSession(testDb.db, session.sessionId, session.refreshToken)).toEqual({ ok: false, reason: "ended" });
    expect((await testDb.db.portalSession.findUniqueOrThrow({ where: { id: session.sessionId } })).endReason).toBe("sign-out");
    // another device's session of the same customer goes on
    expect(await isPortalSessionLive(testDb.db, sibling.sessionId, sibling.customerId)).toBe(true);
  });

  it("offboarding the customer ends every session of it, in the offboarding transaction", async () => {
    const customerId = await createTestCustomer(testDb.db, org.partner.id);
    const phone = await signIn(customerId);
    const laptop = await signIn(customerId);
    const bystander = await signIn();
    await transitionCustomer(testDb.db, org.partner.id, customerId, "offboard");

    for (const session of [phone, laptop]) {
      expect(await isPortalSessionLive(testDb.db, session.sessionId, customerId)).toBe(false);
      expect(await refreshPortalSession(testDb.db, session.sessionId, session.refreshToken)).toEqual({ ok: false, reason: "ended" });
      expect((await testDb.db.portalSession.findUniqueOrThrow({ where: { id: session.sessionId } })).endReason).toBe("offboarded");
    }
    expect(await isPortalSessionLive(testDb.db, bystander.sessionId, bystander.customerId)).toBe(true);
  });

  it("a session is live only for its own customer", async () => {
    const session = await signIn();
    const other = await signIn();
    expect(await isPortalSessionLive(testDb.db, session.sessionId, other.customerId)).toBe(false);
    expect(await isPortalSessionLive(testDb.db, "nope", session.customerId)).toBe(false);
  });
});

describe("isAccessExpired", () => {
  it("compares the access expiry (epoch seconds) with now", () => {
    expect(isAccessExpired(1_000, 999_999)).toBe(false);
    expect(isAccessExpired(1_000, 1_000_000)).toBe(true);
  });
});
