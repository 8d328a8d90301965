import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkBreach, retrieveBreaches } from "../../server/breaches/exposure-index/lookups";
import { scanCustomer } from "../../server/findings/scanner";
import { configuredBreachSource } from "../../server/breaches/exposure-index/sources/configured";
import { HibpBreachSource } from "../../server/breaches/exposure-index/sources/hibp";
import { customerDomain } from "../../server/domains/domains";
import { markDomainVerified } from "../../server/domains/verify";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTestOrg } from "../helpers/fixtures";
import { serveOnLoopback } from "../helpers/http";
import { createBreachTestCustomer, hibpBreach, seedExposures } from "../helpers/breach-fixtures";

const API_KEY = "hibp-test-key";
const USER_AGENT = "exposure-monitor-test";

/** Answers like the HIBP v3 API: key required, 404 for no data, 429 with Retry-After once per address when asked. */
function fakeHibp() {
  const requests: Array<{ path: string; userAgent: string | null; apiKey: string | null }> = [];
  const accounts: Record<string, string[]> = {
    "ceo@acme.example": ["KnownBreach", "NewToUs"],
    "bob@mail.example": ["KnownBreach"],
  };
  const domains: Record<string, Record<string, string[]>> = { "acme.example": { cfo: ["KnownBreach"], ceo: ["KnownBreach", "NewToUs"] } };
  const limited = new Set(["bob@mail.example"]);
  const handler = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    requests.push({
      path: url.pathname + url.search,
      userAgent: request.headers.get("user-agent"),
      apiKey: request.headers.get("hibp-api-key"),
    });
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
      new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
    const [, resource, rawValue] = url.pathname.split("/");
    const value = decodeURIComponent(rawValue ?? "");
    if (resource === "breach") {
      return value === "NewToUs"
        ? json(200, hibpBreach("NewToUs", { Title: "New To Us", DataClasses: ["Email addresses", "Passwords"], IsSensitive: true }))
        : new Response(null, { status: 404 });
    }
    if (request.headers.get("hibp-api-key") !== API_KEY) return new Response("Access denied due to missing hibp-api-key.", { status: 401 });
    if (resource === "breachedaccount") {
      if (limited.delete(value))
        return json(429, { statusCode: 429, message: "Rate limit is exceeded. Try again in 1 seconds." }, { "retry-after": "1" });
      const names = accounts[value];
      return names
        ? json(
            200,
            names.map((Name) => ({ Name })),
          )
        : new Response(null, { status: 404 });
    }
    if (resource === "breacheddomain") {
      const aliases = domains[value];
      return aliases ? json(200, aliases) : new Response(null, { status: 403 });
    }
    return new Response(null, { status: 404 });
  };
  return { handler, requests };
}

let testDb: TestDatabase;
let hibp: ReturnType<typeof fakeHibp>;
let server: Awaited<ReturnType<typeof serveOnLoopback>>;
let source: HibpBreachSource;

beforeAll(async () => {
  testDb = await createTestDatabase();
  await seedExposures(testDb.db, [hibpBreach("KnownBreach")], {});
  hibp = fakeHibp();
  server = await serveOnLoopback(hibp.handler);
  source = new HibpBreachSource({ apiKey: API_KEY, baseUrl: server.baseUrl, userAgent: USER_AGENT });
});
afterAll(async () => {
  await server?.close();
  await testDb?.close();
});

describe("HIBP breach source", () => {
  it("is the configured source when HIBP_API_KEY is set, the local index otherwise", () => {
    const previous = process.env.HIBP_API_KEY;
    try {
      delete process.env.HIBP_API_KEY;
      expect(configuredBreachSource().name).toBe("local");
      process.env.HIBP_API_KEY = "k";
      expect(configuredBreachSource().name).toBe("hibp");
    } finally {
      if (previous === undefined) delete process.env.HIBP_API_KEY;
      else process.env.HIBP_API_KEY = previous;
    }
  });

  it("asks breachedaccount per address with the key and user agent, and imports breaches it does not know", async () => {
    const exposures = await source.exposuresOfEmails(testDb.db, ["ceo@acme.example", "nobody@acme.example"]);
    const ids = new Map((await testDb.db.breach.findMany()).map((breach) => [breach.name, breach.id]));
    expect(ids.has("NewToUs")).toBe(true);
    expect(exposures).toEqual([
      { email: "ceo@acme.example", breachId: ids.get("KnownBreach"), sensitive: false },
      { email: "ceo@acme.example", breachId: ids.get("NewToUs"), sensitive: true },
    ]);
    const accountCalls = hibp.requests.filter((request) => request.path.startsWith("/breachedaccount/"));
    expect(accountCalls.map((request) => request.path)).toEqual([
      "/breachedaccount/ceo%40acme.example",
      "/breachedaccount/nobody%40acme.example",
    ]);
    expect(accountCalls.every((request) => request.userAgent === USER_AGENT && request.apiKey === API_KEY)).toBe(true);
    expect(hibp.requests.some((request) => request.path === "/breach/NewToUs")).toBe(true);
  });

  it("backs off on 429 for the Retry-After given and then gets the answer", async () => {
    const before = hibp.requests.length;
    const exposures = await source.exposuresOfEmails(testDb.db, ["bob@mail.example"]);
    expect(exposures.map((exposure) => exposure.email)).toEqual(["bob@mail.example"]);
    expect(hibp.requests.slice(before).map((request) => request.path)).toEqual([
      "/breachedaccount/bob%40mail.example",
      "/breachedaccount/bob%40mail.example",
    ]);
  });

  it("discovers addresses through the domain search, and skips domains not verified for the key", async () => {
    const exposures = await source.exposuresAtDomains(testDb.db, ["acme.example", "unverified.example"]);
    expect(exposures.map((exposure) => exposure.email).sort()).toEqual(["ceo@acme.example", "ceo@acme.example", "cfo@acme.example"]);
  });

  it("fails loudly when the API refuses the key", async () => {
    const wrongKey = new HibpBreachSource({ apiKey: "wrong", baseUrl: server.baseUrl, userAgent: USER_AGENT });
    await expect(wrongKey.exposuresOfEmails(testDb.db, ["ceo@acme.example"])).rejects.toThrow("missing hibp-api-key");
  });

  it("breach/check asks HIBP only for calls within the key's limit", async () => {
    const caller = { partnerId: randomUUID(), apiKeyId: randomUUID() };
    const asked = () => hibp.requests.filter((request) => request.path === "/breachedaccount/ceo%40acme.example").length;
    const before = asked();
    expect((await checkBreach(testDb.db, caller, { email: "ceo@acme.example" }, { limitPerMinute: 1, source })).result).toBe(true);
    await expect(checkBreach(testDb.db, caller, { email: "ceo@acme.example" }, { limitPerMinute: 1, source })).rejects.toMatchObject({
      code: "RATE_LIMITED",
    });
    expect(asked()).toBe(before + 1);
  });

  it("drives a scan behind the same interface as the local index", async () => {
    const org = await createTestOrg(testDb.db);
    const customer = await createBreachTestCustomer(testDb.db, org.partner.id, { domains: ["acme.example"] });
    // NewToUs is sensitive: withheld until acme.example is verified for this customer (docs/domains.md)
    expect(await scanCustomer(testDb.db, customer.id, "onboard", source)).toMatchObject({
      scanned: true,
      discoveredEmails: 2,
      newBreaches: 1,
    });
    const instances = async () =>
      (
        await testDb.db.customerBreach.findMany({
          where: { customerId: customer.id },
          include: { breach: true },
          orderBy: { breach: { name: "asc" } },
        })
      ).map((instance) => [instance.breach.name, instance.emails]);
    expect(await instances()).toEqual([["KnownBreach", ["ceo@acme.example", "cfo@acme.example"]]]);
    const titles = async (partnerId: string) =>
      (
        await retrieveBreaches(testDb.db, { partnerId, apiKeyId: randomUUID() }, "ceo@acme.example", "en-GB", {
          limitPerMinute: 60,
          source,
        })
      ).result
        .map((breach) => breach.title)
        .sort();
    expect(await titles(org.partner.id)).toEqual(["KnownBreach title"]);

    const domain = await customerDomain(testDb.db, customer.id, "acme.example");
    expect(await markDomainVerified(testDb.db, domain.id, { method: "staff", by: "Test staff", note: "Known by contract" })).toBe(true);
    expect(await instances()).toEqual([
      ["KnownBreach", ["ceo@acme.example", "cfo@acme.example"]],
      ["NewToUs", ["ceo@acme.example"]],
    ]);
    // shown to the partner whose customer verified the address's domain, to nobody else
    expect(await titles(org.partner.id)).toEqual(["KnownBreach title", "New To Us"]);
    expect(await titles(randomUUID())).toEqual(["KnownBreach title"]);
  });
});
