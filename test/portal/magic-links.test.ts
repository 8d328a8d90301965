import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { transitionCustomer } from "../../server/customers/lifecycle";
import { consumeMagicLink, createMagicLink } from "../../server/portal/magic-links";
import { createBreachTestCustomer } from "../helpers/breach-fixtures";
import { createTestCustomer } from "../helpers/customers";
import { failInsertsInto } from "../helpers/failures";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { restTestBed } from "../helpers/rest";

const { testDb, server } = restTestBed();
let org: TestOrg;
let otherOrg: TestOrg;
const APP_URL = "https://portal.example.test";
const previousAppUrl = process.env.APP_URL;

beforeAll(async () => {
  process.env.APP_URL = APP_URL;
  org = await createTestOrg(testDb.db, "Linked");
  otherOrg = await createTestOrg(testDb.db, "Other");
});
afterAll(async () => {
  if (previousAppUrl === undefined) delete process.env.APP_URL;
  else process.env.APP_URL = previousAppUrl;
});

const LINK_PATTERN = /^https:\/\/portal\.example\.test\/auth\/confirm\?token_hash=([A-Za-z0-9_-]{43})&type=magiclink$/;
const linkPath = (customerId: string) => `/api/v1/integrations/customer/${customerId}/magic-link`;

function tokenOf(url: string): string {
  const match = LINK_PATTERN.exec(url);
  if (!match) throw new Error(`not a magic link: ${url}`);
  return match[1]!;
}

async function newLink(customerId: string): Promise<string> {
  return tokenOf((await createMagicLink(testDb.db, org.partner.id, customerId)).url);
}

describe("POST customer/{customerId}/magic-link", () => {
  it("answers {success, url} with the confirmation address, and stores only the token's SHA-256 for one hour", async () => {
    const customerId = await createTestCustomer(testDb.db, org.partner.id);
    const res = await server.api.post(linkPath(customerId), undefined, org.partner.headers);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, url: expect.stringMatching(LINK_PATTERN) });
    const token = tokenOf(res.body.url);

    const rows = await testDb.db.magicLinkToken.findMany({ where: { portalUser: { customerId } } });
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(row.tokenHash).toBe(createHash("sha256").update(token).digest("hex"));
    expect(JSON.stringify(row)).not.toContain(token);
    expect(row.usedAt).toBeNull();
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBe(60 * 60 * 1000);
  });

  it("gives a new, different link on every call; each one works on its own", async () => {
    const customerId = await createTestCustomer(testDb.db, org.partner.id);
    const first = await newLink(customerId);
    const second = await newLink(customerId);
    expect(first).not.toBe(second);
    expect((await consumeMagicLink(testDb.db, second)).ok).toBe(true);
    expect((await consumeMagicLink(testDb.db, first)).ok).toBe(true);
  });

  it("is also served under the unversioned prefix, with a body-less POST that says it is JSON", async () => {
    const customerId = await createTestCustomer(testDb.db, org.partner.id);
    const res = await server.api.call("POST", `/api/integrations/customer/${customerId}/magic-link`, {
      headers: { ...org.partner.headers, "content-type": "application/json" },
    });
    expect(res.status).toBe(200);
    expect(res.body.url).toMatch(LINK_PATTERN);
  });

  it("answers the documented errors", async () => {
    const customerId = await createTestCustomer(testDb.db, org.partner.id);
    const foreignCustomerId = await createTestCustomer(testDb.db, otherOrg.partner.id);
    const withoutPortalUser = await createBreachTestCustomer(testDb.db, org.partner.id, { domains: ["nouser.example"] });
    const offboarded = await createTestCustomer(testDb.db, org.partner.id);
    await transitionCustomer(testDb.db, org.partner.id, offboarded, "offboard");

    const cases: Array<[string, Record<string, string> | undefined, number, string]> = [
      [linkPath("not-a-uuid"), org.partner.headers, 400, "Invalid route parameters: Customer ID must be a valid UUID"],
      [linkPath(customerId), undefined, 401, "Partner ID and API key are required in headers"],
      [linkPath(customerId), { ...org.partner.headers, "SW-API-KEY": "sk_live_wrong" }, 401, "Failed to verify org API key"],
      [linkPath(customerId), org.onBehalfHeaders, 401, "Failed to verify org API key"],
      [linkPath("6f1c2d3e-0000-4000-8000-000000000000"), org.partner.headers, 404, "Customer not found or does not belong to partner"],
      [linkPath(foreignCustomerId), org.partner.headers, 404, "Customer not found or does not belong to partner"],
      [linkPath(withoutPortalUser.id), org.partner.headers, 400, "Customer has no platform user"],
      [linkPath(offboarded), org.partner.headers, 422, "Customer cannot sign in: customer is inactive"],
    ];
    for (const [path, headers, status, error] of cases) {
      const res = await server.api.post(path, undefined, headers);
      expect({ path, status: res.status, body: res.body }).toEqual({ path, status, body: { success: false, error } });
    }
    expect(await testDb.db.magicLinkToken.count({ where: { portalUser: { customerId: { in: [foreignCustomerId, offboarded] } } } })).toBe(
      0,
    );
  });

  it("answers 500 'Failed to generate magic link' when the link cannot be stored", async () => {
    const customerId = await createTestCustomer(testDb.db, org.partner.id);
    const restore = await failInsertsInto(testDb.db, "magic_link_tokens");
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      const res = await server.api.post(linkPath(customerId), undefined, org.partner.headers);
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ success: false, error: "Failed to generate magic link" });
    } finally {
      stderr.mockRestore();
      await restore();
    }
  });

  it("never writes the link or its token to the log", async () => {
    const customerId = await createTestCustomer(testDb.db, org.partner.id);
    const previousLevel = process.env.LOG_LEVEL;
    process.env.LOG_LEVEL = "debug";
    const written: string[] = [];
    const capture = (chunk: unknown) => {
      written.push(String(chunk));
      return true;
    };
    const stdout = vi.spyOn(process.stdout, "write").mockImplementation(capture);
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(capture);
    let url: string;
    try {
      url = (await server.api.post(linkPath(customerId), undefined, org.partner.headers)).body.url;
      await consumeMagicLink(testDb.db, tokenOf(url));
      await consumeMagicLink(testDb.db, tokenOf(url));
    } finally {
      stdout.mockRestore();
      stderr.mockRestore();
      process.env.LOG_LEVEL = previousLevel;
    }
    const log = written.join("");
    expect(log).toContain("magic link created");
    expect(log).toContain("portal sign-in");
    expect(log).not.toContain(tokenOf(url));
    expect(log).not.toContain("token_hash");
  });
});

describe("consumeMagicLink", () => {
  it("signs in once: the session starts, the link is used, the portal user's sign-in is recorded", async () => {
    const customerId = await createTestCustomer(testDb.db, org.partner.id, { contactEmail: "Owner@Linked.example", localeCode: "sv-SE" });
    const token = await newLink(customerId);
    const result = await consumeMagicLink(testDb.db, token);
    expect(result).toMatchObject({ ok: true, localeCode: "sv-SE", signIn: { customerId, email: "owner@linked.example" } });
    if (!result.ok) throw new Error("unreachable");
    const session = await testDb.db.portalSession.findUniqueOrThrow({ where: { id: result.signIn.sessionId } });
    expect(session.endedAt).toBeNull();
    const portalUser = await testDb.db.portalUser.findUniqueOrThrow({ where: { customerId } });
    expect(portalUser.id).toBe(result.signIn.portalUserId);
    expect(portalUser.lastSignInAt).toBeInstanceOf(Date);
    expect((await testDb.db.magicLinkToken.findFirstOrThrow({ where: { portalUserId: portalUser.id } })).usedAt).toBeInstanceOf(Date);

    expect(await consumeMagicLink(testDb.db, token)).toEqual({ ok: false, reason: "used", localeCode: "sv-SE" });
    expect(await testDb.db.portalSession.count({ where: { portalUserId: portalUser.id } })).toBe(1);
  });

  it("of many simultaneous opens of one link, exactly one signs in", async () => {
    const customerId = await createTestCustomer(testDb.db, org.partner.id);
    const token = await newLink(customerId);
    const results = await Promise.all(Array.from({ length: 8 }, () => consumeMagicLink(testDb.db, token)));
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(results.filter((result) => !result.ok).map((result) => !result.ok && result.reason)).toEqual(Array(7).fill("used"));
    expect(await testDb.db.portalSession.count({ where: { portalUser: { customerId } } })).toBe(1);
  });

  it("refuses an expired link, and nothing changes", async () => {
    const customerId = await createTestCustomer(testDb.db, org.partner.id);
    const token = await newLink(customerId);
    await testDb.db.$executeRaw`
      UPDATE magic_link_tokens SET expires_at = now() - interval '1 second'
      WHERE portal_user_id = (SELECT id FROM portal_users WHERE customer_id = ${customerId}::uuid)`;
    expect(await consumeMagicLink(testDb.db, token)).toMatchObject({ ok: false, reason: "expired" });
    expect((await testDb.db.magicLinkToken.findFirstOrThrow({ where: { portalUser: { customerId } } })).usedAt).toBeNull();
    expect(await testDb.db.portalSession.count({ where: { portalUser: { customerId } } })).toBe(0);
  });

  it("refuses unknown and malformed tokens without telling more", async () => {
    expect(await consumeMagicLink(testDb.db, "A".repeat(43))).toEqual({ ok: false, reason: "invalid" });
    expect(await consumeMagicLink(testDb.db, "")).toEqual({ ok: false, reason: "invalid" });
    expect(await consumeMagicLink(testDb.db, "short")).toEqual({ ok: false, reason: "invalid" });
    expect(await consumeMagicLink(testDb.db, "x".repeat(43) + "' OR 1=1 --")).toEqual({ ok: false, reason: "invalid" });
  });

  it("offboarding voids the customer's unused links", async () => {
    const customerId = await createTestCustomer(testDb.db, org.partner.id);
    const token = await newLink(customerId);
    await transitionCustomer(testDb.db, org.partner.id, customerId, "offboard");
    expect(await consumeMagicLink(testDb.db, token)).toMatchObject({ ok: false, reason: "unavailable" });
    // reactivated, the customer can sign in again, with a new link only
    await transitionCustomer(testDb.db, org.partner.id, customerId, "reactivate");
    expect(await consumeMagicLink(testDb.db, token)).toMatchObject({ ok: false, reason: "expired" });
    expect((await consumeMagicLink(testDb.db, await newLink(customerId))).ok).toBe(true);
  });
});
