import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { rawRequest } from "../../test/helpers/raw-http";
import {
  call,
  partnerHeaders,
  requirePostgres,
  scratchDatabase,
  serverLogFile,
  sql,
  startSeededServer,
  stopServersLeftRunning,
  terminate,
} from "./support";

test.afterEach(stopServersLeftRunning);

/**
 * The custom infrastructure switched off (ARCHITECTURE.md, "Custom infrastructure"): the
 * production server leaves REST calls to Next.js and reads through Prisma, with the same answers.
 */
test("with REST_FAST_PATH, DIRECT_DRIVER_READS and BULK_COPY off the service answers the same", async () => {
  requirePostgres();
  const database = await scratchDatabase("switches");
  try {
    const server = await startSeededServer("switches-off", 3245, database.url, {
      REST_FAST_PATH: "false",
      DIRECT_DRIVER_READS: "false",
      BULK_COPY: "false",
    });
    const reasons = readFileSync(serverLogFile("switches-off"), "utf8")
      .split("\n")
      .filter((line) => line.includes("the REST API is served through Next.js's request pipeline"));
    expect(reasons.map((line) => JSON.parse(line).reason)).toEqual(["REST_FAST_PATH is false"]);

    for (let call = 0; call < 2; call++) {
      // Next.js's pipeline adds its page-routing Vary to every answer; the fast path does not.
      const health = await rawRequest(server.baseUrl, { path: "/api/v1/health" });
      expect(health.status).toBe(200);
      expect(health.headers.vary ?? "").toContain("rsc");
      expect(health.headers["x-content-type-options"]).toBe("nosniff");
      // The same security headers as the fast path's (e2e/api/rest-fast-path.spec.ts).
      expect(health.headers["content-security-policy"]).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(health.headers["permissions-policy"]).toBeUndefined();
      expect(health.headers["referrer-policy"]).toBeUndefined();
    }

    // breach/check reads through Prisma now: its answers match the exposure index row for row.
    const exposed = new Set(
      (await sql<{ email: string }>(database.url, "SELECT DISTINCT email FROM breach_exposures WHERE domain = 'northwind.example'")).map(
        (row) => row.email,
      ),
    );
    expect(exposed.size).toBeGreaterThan(0);
    for (const mailbox of ["ceo", "cfo", "it", "sales", "support", "hr", "anna.berg", "emma.jones"]) {
      const email = `${mailbox}@northwind.example`;
      const checked = await call(server.baseUrl, "POST", "/api/v1/integrations/breach/check", partnerHeaders(server.demo), { email });
      expect(checked.status, JSON.stringify(checked.body)).toBe(200);
      expect(checked.body, email).toEqual({ success: true, breach: exposed.has(email) });
    }
    expect((await terminate(server)).code).toBe(0);
  } finally {
    await database.drop();
  }
});
