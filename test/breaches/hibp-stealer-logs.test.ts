import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { HibpBreachSource } from "../../server/breaches/exposure-index/sources/hibp";
import { customerDomain } from "../../server/domains/domains";
import { markDomainVerified } from "../../server/domains/verify";
import { scanCustomer } from "../../server/findings/scanner";
import { listCustomerStealerLogs } from "../../server/findings/stealer-logs";
import { log } from "../../server/log";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { serveOnLoopback } from "../helpers/http";
import { schemaValidator } from "../helpers/openapi-schema";
import { createBreachTestCustomer, hibpBreach, seedExposures } from "../helpers/breach-fixtures";

/** OpenAPI 3.0's `nullable: true` as JSON Schema's null type, for the validator. */
function nullableAsJsonSchema(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(nullableAsJsonSchema);
  if (typeof value !== "object" || value === null) return value;
  const { nullable, ...rest } = value as Record<string, unknown>;
  const converted = Object.fromEntries(Object.entries(rest).map(([name, inner]) => [name, nullableAsJsonSchema(inner)]));
  return nullable === true && typeof converted.type === "string" ? { ...converted, type: [converted.type, "null"] } : converted;
}

/** HIBP's published description of the endpoints used, trimmed (its source is named in its info). */
const hibpApi = nullableAsJsonSchema(
  JSON.parse(readFileSync(new URL("../fixtures/hibp/hibp-v3-stealer-logs-subset.json", import.meta.url), "utf8")),
) as {
  components: { schemas: Record<string, unknown> };
  paths: Record<string, { get: { responses: Record<string, { content?: { "application/json": { schema: object } } }> } }>;
};

const PRO_KEY = "0123456789abcdef0123456789abcdef";
const CORE_KEY = "fedcba9876543210fedcba9876543210";
const USER_AGENT = "exposure-monitor-test";

/**
 * A local HIBP: every request is checked against the published description (a documented path,
 * the user agent and key it requires) and every answer against its response schema.
 */
function fakeHibp() {
  const requests: string[] = [];
  const violations: string[] = [];
  const stealerLogs: Record<string, Record<string, string[]>> = {
    "acme.example": { ceo: ["netflix.com", "Bank.Example"], cfo: ["mail.example"] },
  };
  const limitedOnce = new Set(["acme.example"]);
  const answer = (template: string, status: number, body: unknown, headers: Record<string, string> = {}) => {
    const schema = hibpApi.paths[template]?.get.responses[String(status)]?.content?.["application/json"].schema;
    if (!schema) violations.push(`${template}: status ${status} is not documented`);
    else {
      const checked = schemaValidator(hibpApi, schema).safeParse(body);
      if (!checked.success) violations.push(`${template} ${status}: ${checked.error.message}`);
    }
    return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
  };
  const handler = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    requests.push(url.pathname);
    const key = request.headers.get("hibp-api-key");
    const [, resource, rawValue] = url.pathname.split("/");
    // The breach search of the scan is not under test here: nothing found.
    if (resource === "breacheddomain" || resource === "breachedaccount") return new Response(null, { status: 404 });
    const template = resource === "subscription" ? "/subscription/status" : `/${resource}/{domain}`;
    if (!hibpApi.paths[template]) {
      violations.push(`undocumented path ${url.pathname}`);
      return new Response(null, { status: 404 });
    }
    if (!request.headers.get("user-agent")) violations.push(`${url.pathname} without a user agent`);
    if (!key || !/^[0-9a-f]{32}$/.test(key))
      return answer(template, 401, { statusCode: 401, message: "Access denied due to invalid hibp-api-key." });
    if (template === "/subscription/status") {
      return answer(template, 200, {
        SubscriptionName: key === PRO_KEY ? "Pro 1" : "Core 1",
        Description: "Test subscription",
        SubscribedUntil: "2027-01-01T00:00:00Z",
        Rpm: 10,
        DomainSearchMaxBreachedAccounts: null,
        MaxBreachedDomains: null,
        IncludesStealerLogs: key === PRO_KEY,
        IncludesBulkDomainAdd: false,
        IncludesAutoSubdomainVerification: false,
        IncludesCustomerDomains: false,
        IncludesKAnon: false,
      });
    }
    const domain = decodeURIComponent(rawValue ?? "");
    if (key !== PRO_KEY) return answer(template, 403, { statusCode: 403, message: "Your subscription does not include stealer logs." });
    if (limitedOnce.delete(domain)) {
      return answer(template, 429, { statusCode: 429, message: "Rate limit is exceeded. Try again in 1 seconds." }, { "retry-after": "1" });
    }
    if (domain === "refused.example") return answer(template, 403, { statusCode: 403, message: "Domain not verified." });
    const aliases = stealerLogs[domain];
    return aliases ? answer(template, 200, aliases) : answer(template, 404, { statusCode: 404, message: "Not found" });
  };
  return { handler, requests, violations };
}

let testDb: TestDatabase;
let org: TestOrg;
let hibp: ReturnType<typeof fakeHibp>;
let server: Awaited<ReturnType<typeof serveOnLoopback>>;
let breachIds: Map<string, string>;

beforeAll(async () => {
  testDb = await createTestDatabase();
  org = await createTestOrg(testDb.db, "Hibp stealer", { domainPolicy: "verified" });
  breachIds = await seedExposures(
    testDb.db,
    [
      hibpBreach("OlderStealerLogs", { IsStealerLog: true, AddedDate: "2024-08-01T05:38:53Z" }),
      hibpBreach("NewestStealerLogs", { IsStealerLog: true, AddedDate: "2025-10-21T19:14:38Z" }),
    ],
    {},
  );
  hibp = fakeHibp();
  server = await serveOnLoopback(hibp.handler);
});
afterAll(async () => {
  await server?.close();
  await testDb?.close();
});

async function verifiedCustomer(domains: string[], verify: string[]) {
  const customer = await createBreachTestCustomer(testDb.db, org.partner.id, { domains });
  for (const domain of verify) {
    const row = await customerDomain(testDb.db, customer.id, domain);
    await markDomainVerified(testDb.db, row.id, { method: "staff", by: "Test staff" });
  }
  return customer;
}

describe("HIBP stealer logs by e-mail domain", () => {
  it("are asked for the verified domains during a scan, after a 429's Retry-After, and reach the customer's stealer-log list", async () => {
    const source = new HibpBreachSource({ apiKey: PRO_KEY, baseUrl: server.baseUrl, userAgent: USER_AGENT });
    const customer = await verifiedCustomer(["acme.example", "pending.example", "refused.example"], ["acme.example", "refused.example"]);
    const warn = vi.spyOn(log, "warn");
    const before = hibp.requests.length;
    let warnings: unknown[] = [];
    try {
      await scanCustomer(testDb.db, customer.id, "onboard", source);
      warnings = warn.mock.calls.map(([message]) => message);
    } finally {
      warn.mockRestore();
    }
    const asked = hibp.requests.slice(before).filter((path) => path.startsWith("/stealerlogs") || path.startsWith("/subscription"));
    expect(asked).toEqual([
      "/subscription/status",
      "/stealerlogsbyemaildomain/acme.example",
      "/stealerlogsbyemaildomain/acme.example",
      "/stealerlogsbyemaildomain/refused.example",
    ]);
    expect(warnings).toEqual(
      expect.arrayContaining([
        "HIBP rate limit reached; backing off",
        "HIBP stealer-log search refused: the domain is not verified for this API key, or its plan lacks stealer logs",
      ]),
    );
    const listed = await listCustomerStealerLogs(testDb.db, org.partner.id, customer.id);
    const instance = await testDb.db.customerBreach.findFirstOrThrow({ where: { customerId: customer.id } });
    expect(instance.breachId).toBe(breachIds.get("NewestStealerLogs"));
    expect(listed).toEqual({
      success: true,
      count: 2,
      entries: [
        { email: "ceo@acme.example", websiteDomains: ["bank.example", "netflix.com"], capturedAt: null, breachId: instance.id },
        { email: "cfo@acme.example", websiteDomains: ["mail.example"], capturedAt: null, breachId: instance.id },
      ],
    });
    expect(hibp.violations).toEqual([]);
  });

  it("degrade to breaches only, with a warning, for a key whose plan lacks them", async () => {
    const source = new HibpBreachSource({ apiKey: CORE_KEY, baseUrl: server.baseUrl, userAgent: USER_AGENT });
    const customer = await verifiedCustomer(["acme.example"], ["acme.example"]);
    const warn = vi.spyOn(log, "warn");
    const before = hibp.requests.length;
    let warnings: unknown[] = [];
    try {
      const outcome = await scanCustomer(testDb.db, customer.id, "onboard", source);
      expect(outcome).toMatchObject({ scanned: true, newBreaches: 0 });
      warnings = warn.mock.calls.map(([message]) => message);
    } finally {
      warn.mockRestore();
    }
    expect(hibp.requests.slice(before).filter((path) => path.startsWith("/stealerlogs"))).toEqual([]);
    expect(warnings).toContain("HIBP stealer logs skipped: this API key's subscription does not include them; scans look up breaches only");
    expect(hibp.violations).toEqual([]);
  });

  it("are not asked for a customer without a verified domain", async () => {
    const source = new HibpBreachSource({ apiKey: PRO_KEY, baseUrl: server.baseUrl, userAgent: USER_AGENT });
    const customer = await verifiedCustomer(["acme.example"], []);
    const before = hibp.requests.length;
    await scanCustomer(testDb.db, customer.id, "onboard", source);
    expect(hibp.requests.slice(before).filter((path) => path.startsWith("/stealerlogs"))).toEqual([]);
    expect(await testDb.db.customerBreach.count({ where: { customerId: customer.id } })).toBe(0);
  });
});
