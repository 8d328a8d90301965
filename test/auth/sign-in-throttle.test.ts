import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createStaffUser } from "../../server/auth/staff";
import { metricsHandler } from "../../server/metrics/endpoint";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTestOrg } from "../helpers/fixtures";
import type { LoopbackServer } from "../helpers/http";
import { signInStaff } from "../helpers/sign-in-client";
import { startStaffSignInServer } from "../helpers/staff-sign-in";

/**
 * Staff sign-in limits over real HTTP (docs/admin-ui.md, "Sign-in limits"): every 127.0.0.x is a
 * client of its own to the server on 127.0.0.1, which knows the client only from the socket's
 * peer address, and from X-Forwarded-For only when TRUST_PROXY says the peer is a proxy of ours.
 */

let testDb: TestDatabase;
let server: LoopbackServer;
let distributorId: string;
const PASSWORD = "a long staff password";

beforeAll(async () => {
  testDb = await createTestDatabase();
  distributorId = (await createTestOrg(testDb.db, "Throttled")).distributor.id;
  server = await startStaffSignInServer(testDb.db);
});
afterAll(async () => {
  await server?.close();
  await testDb?.close();
});
beforeEach(() => {
  vi.stubEnv("NEXTAUTH_URL", server.baseUrl);
  // Every refusal is logged as a warning: only the test of those lines reads them.
  vi.stubEnv("LOG_LEVEL", "error");
});
afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

async function staffAccount(name: string): Promise<string> {
  const email = `${name}@throttled.example`;
  await createStaffUser(testDb.db, { distributorId, email, password: PASSWORD });
  return email;
}

const signIn = (email: string, password: string, from: string, headers?: Record<string, string>) =>
  signInStaff(server.baseUrl, { email, password, from, headers });

// Each sign-in verifies an argon2 hash: the long ones take tens of seconds on a busy machine.
describe("staff sign-in limits", { timeout: 120_000 }, () => {
  it("50 failed sign-ins from one client do not refuse the right password from another", async () => {
    const owner = await staffAccount("owner-a");
    for (let attempt = 0; attempt < 50; attempt++) {
      expect(await signIn(`made-up-${attempt}@nowhere.example`, "wrong password", "127.0.0.2")).toBe("CredentialsSignin");
    }
    // That client is limited, even with a right password...
    expect(await signIn(owner, PASSWORD, "127.0.0.2")).toBe("RateLimited");
    // ...and nobody else is.
    expect(await signIn(owner, PASSWORD, "127.0.0.3")).toBe("signed-in");
  });

  it("ten wrong passwords for an account from one client do not stop its owner on another client", async () => {
    const owner = await staffAccount("owner-b");
    for (let attempt = 0; attempt < 10; attempt++) expect(await signIn(owner, `guess ${attempt}`, "127.0.0.4")).toBe("CredentialsSignin");
    expect(await signIn(owner, PASSWORD, "127.0.0.4")).toBe("RateLimited");
    expect(await signIn(owner, PASSWORD, "127.0.0.5")).toBe("signed-in");
    // The same client may still sign into another account.
    expect(await signIn(await staffAccount("colleague-b"), PASSWORD, "127.0.0.4")).toBe("signed-in");
  });

  it("a client rotating X-Forwarded-For without TRUST_PROXY is limited like any client", async () => {
    const owner = await staffAccount("owner-c");
    const spoofed = (attempt: number) => ({
      "x-forwarded-for": `203.0.113.${attempt}`,
      "x-exposure-monitor-peer": `198.51.100.${attempt}`,
    });
    for (let attempt = 0; attempt < 10; attempt++) {
      expect(await signIn(owner, `guess ${attempt}`, "127.0.0.6", spoofed(attempt))).toBe("CredentialsSignin");
    }
    expect(await signIn(owner, PASSWORD, "127.0.0.6", spoofed(10))).toBe("RateLimited");

    const outcomes: string[] = [];
    for (let attempt = 0; attempt < 60; attempt++) {
      outcomes.push(await signIn(`made-up-${attempt}@nowhere.example`, "wrong password", "127.0.0.7", spoofed(attempt)));
    }
    // The 50 attempts a client has in the window, then refusals.
    expect(outcomes.filter((outcome) => outcome === "RateLimited")).toHaveLength(10);
    expect(outcomes.slice(50).every((outcome) => outcome === "RateLimited")).toBe(true);
  });

  it("with TRUST_PROXY naming the peer, the client is the address X-Forwarded-For gives", async () => {
    vi.stubEnv("TRUST_PROXY", "127.0.0.8");
    const owner = await staffAccount("owner-d");
    const behindProxy = (client: string) => ({ "x-forwarded-for": client });
    for (let attempt = 0; attempt < 10; attempt++) {
      expect(await signIn(owner, `guess ${attempt}`, "127.0.0.8", behindProxy("203.0.113.50"))).toBe("CredentialsSignin");
    }
    expect(await signIn(owner, PASSWORD, "127.0.0.8", behindProxy("203.0.113.50"))).toBe("RateLimited");
    // Another client behind the same proxy is another client.
    expect(await signIn(owner, PASSWORD, "127.0.0.8", behindProxy("203.0.113.51"))).toBe("signed-in");
    // A client's own entry, left of the one the proxy appended, changes nothing.
    expect(await signIn(owner, PASSWORD, "127.0.0.8", behindProxy("203.0.113.51, 203.0.113.50"))).toBe("RateLimited");
    // A peer that is not the proxy is its own client, whatever its header says.
    for (let attempt = 0; attempt < 10; attempt++) {
      expect(await signIn(owner, `guess ${attempt}`, "127.0.0.9", behindProxy(`203.0.113.${60 + attempt}`))).toBe("CredentialsSignin");
    }
    expect(await signIn(owner, PASSWORD, "127.0.0.9", behindProxy("203.0.113.99"))).toBe("RateLimited");
  });

  it("logs refused sign-ins with the staff id (a hash for an unknown account), client and reason, and counts them in /api/metrics", async () => {
    vi.stubEnv("LOG_LEVEL", "warn");
    const owner = await staffAccount("owner-e");
    const scrape = async () => {
      const handler = metricsHandler({ getDb: () => testDb.db, token: () => "metrics-token" });
      const text = await (
        await handler(new Request("http://localhost/api/metrics", { headers: { authorization: "Bearer metrics-token" } }))
      ).text();
      const count = (reason: string) =>
        Number(new RegExp(`^exposure_monitor_staff_sign_ins_refused_total\\{reason="${reason}"\\} (\\d+)$`, "m").exec(text)?.[1] ?? 0);
      return { invalid: count("invalid"), rateLimited: count("rate-limited") };
    };
    const before = await scrape();
    const stderr = vi.spyOn(process.stderr, "write");
    for (let attempt = 0; attempt < 11; attempt++) await signIn(owner, `guess ${attempt}`, "127.0.0.10");
    await signIn("Tr0ub4dor&3 my password", "whatever", "127.0.0.10");
    const lines = stderr.mock.calls.map(([chunk]) => String(chunk));
    vi.restoreAllMocks();

    const refusals = lines
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((entry) => entry.message === "staff sign-in refused");
    expect(refusals).toHaveLength(12);
    const staffId = (await testDb.db.staffUser.findUniqueOrThrow({ where: { email: owner } })).id;
    expect(refusals[0]).toMatchObject({ level: "warn", staffId, client: "127.0.0.10", reason: "invalid" });
    expect(refusals[10]).toMatchObject({ staffId, client: "127.0.0.10", reason: "rate-limited", limit: "account-client" });
    // A password typed into the e-mail field: what was typed is not logged, only a hash of it.
    expect(refusals[11]).toMatchObject({ accountHash: expect.stringMatching(/^[A-Za-z0-9_-]{16}$/), reason: "invalid" });
    expect(refusals[11]).not.toHaveProperty("staffId");
    expect(JSON.stringify(refusals)).not.toContain("guess");
    expect(JSON.stringify(refusals)).not.toContain(owner);
    expect(JSON.stringify(refusals)).not.toContain("Tr0ub4dor");
    expect(await scrape()).toEqual({ invalid: before.invalid + 11, rateLimited: before.rateLimited + 1 });
  });
});
