import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { buildOpenApiDocument } from "../../server/api/openapi";
import { issueApiKey } from "../../server/auth/api-keys";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { restTestBed } from "../helpers/rest";
import { hibpBreach, seedExposures } from "../helpers/breach-fixtures";

/**
 * Rate limits you can see (docs/api.md, "Rate limits"): breach/retrieve had no limit at all, and
 * breach/check gave no sign of its limit until the 429. Both now count per API key and every
 * counted answer carries RateLimit-Policy and RateLimit; a 429 carries Retry-After too.
 */
const { testDb, server } = restTestBed();
let org: TestOrg;

const RETRIEVE = "/api/v1/integrations/breach/retrieve";
const CHECK = "/api/v1/integrations/breach/check";

beforeAll(async () => {
  org = await createTestOrg(testDb.db, "Limits");
  await seedExposures(testDb.db, [hibpBreach("Gamma")], { "ceo@acme.example": ["Gamma"] });
});
afterEach(() => {
  vi.unstubAllEnvs();
});

async function freshKeyHeaders() {
  const key = await issueApiKey(testDb.db, { partnerId: org.partner.id });
  return { id: key.id, headers: { "SW-PARTNER-ID": org.partner.id, "SW-API-KEY": key.apiKey } };
}

/** RateLimit's r and t: a structured-field list item `"<policy>";r=<n>;t=<n>`. */
function rateLimitOf(value: string | null, policy: string): { r: number; t: number } {
  const match = new RegExp(`^"${policy}";r=(\\d+);t=(\\d+)$`).exec(value ?? "");
  expect(match, `RateLimit: ${value}`).not.toBeNull();
  return { r: Number(match![1]), t: Number(match![2]) };
}

describe.each([
  [RETRIEVE, "breach-retrieve", "BREACH_RETRIEVE_RATE_LIMIT", "breaches"],
  [CHECK, "breach-check", "BREACH_CHECK_RATE_LIMIT", "breach"],
])("POST %s", (path, policy, setting, field) => {
  it(`counts calls per key (${setting}), shows what is left on every answer, and answers 429 with Retry-After past the limit`, async () => {
    vi.stubEnv(setting, "3");
    const { id, headers } = await freshKeyHeaders();
    const call = (h: Record<string, string>) => server.api.post(path, { email: "ceo@acme.example" }, h);

    for (const expectedLeft of [2, 1, 0]) {
      const res = await call(headers);
      expect(res.status).toBe(200);
      expect(res.body).toHaveProperty(field);
      expect(res.headers.get("ratelimit-policy")).toBe(`"${policy}";q=3;w=60`);
      const { r, t } = rateLimitOf(res.headers.get("ratelimit"), policy);
      expect(r).toBe(expectedLeft);
      expect(t >= 1 && t <= 60).toBe(true);
      expect(res.headers.get("retry-after")).toBeNull();
    }

    const limited = await call(headers);
    expect({ status: limited.status, body: limited.body }).toEqual({ status: 429, body: { success: false, error: "Too many requests" } });
    expect(limited.headers.get("ratelimit-policy")).toBe(`"${policy}";q=3;w=60`);
    const { r, t } = rateLimitOf(limited.headers.get("ratelimit"), policy);
    expect(r).toBe(0);
    expect(Number(limited.headers.get("retry-after"))).toBe(t);

    // Another key of the same partner has its own budget.
    const other = await call((await freshKeyHeaders()).headers);
    expect(other.status).toBe(200);
    expect(rateLimitOf(other.headers.get("ratelimit"), policy).r).toBe(2);

    // The window ends (moved back here instead of waiting a minute): calls pass again.
    await testDb.db.rateLimitCounter.update({ where: { key: `${policy}:${id}` }, data: { windowStart: new Date(Date.now() - 61_000) } });
    const recovered = await call(headers);
    expect(recovered.status).toBe(200);
    expect(rateLimitOf(recovered.headers.get("ratelimit"), policy).r).toBe(2);
  });

  it("counts the two paths apart: one path's limit leaves the other's budget alone", async () => {
    vi.stubEnv(setting, "1");
    const { headers } = await freshKeyHeaders();
    expect((await server.api.post(path, { email: "ceo@acme.example" }, headers)).status).toBe(200);
    expect((await server.api.post(path, { email: "ceo@acme.example" }, headers)).status).toBe(429);
    const otherPath = path === RETRIEVE ? CHECK : RETRIEVE;
    expect((await server.api.post(otherPath, { email: "ceo@acme.example" }, headers)).status).toBe(200);
  });
});

describe("the OpenAPI document", () => {
  it("declares RateLimit-Policy and RateLimit on the limited paths' answers, and Retry-After on their 429", () => {
    const document = buildOpenApiDocument("http://localhost:3000") as any;
    const limitHeaders = {
      "RateLimit-Policy": { $ref: "#/components/headers/RateLimit-Policy" },
      RateLimit: { $ref: "#/components/headers/RateLimit" },
      "X-Request-Id": { $ref: "#/components/headers/X-Request-Id" },
    };
    for (const path of [RETRIEVE, CHECK]) {
      const responses = document.paths[path].post.responses;
      expect(responses["200"].headers).toEqual(limitHeaders);
      expect(responses["429"].headers).toEqual({ ...limitHeaders, "Retry-After": { $ref: "#/components/headers/Retry-After" } });
      expect(responses["429"].content["application/json"].examples.example1.value).toEqual({ success: false, error: "Too many requests" });
    }
    // breach/range spends breach/check's budget and says so the same way
    const range = document.paths["/api/v1/integrations/breach/range/{prefix}"].get.responses;
    expect(range["200"].headers).toEqual(limitHeaders);
    expect(range["429"].headers).toEqual({ ...limitHeaders, "Retry-After": { $ref: "#/components/headers/Retry-After" } });
    expect(Object.keys(document.components.headers)).toEqual(expect.arrayContaining(["RateLimit-Policy", "RateLimit", "Retry-After"]));
    expect(document.components.headers["Retry-After"].schema).toMatchObject({ type: "integer" });
    // other paths declare only the request id every answer carries
    expect(document.paths["/api/v1/integrations/breach/status"].post.responses["200"].headers).toEqual({
      "X-Request-Id": { $ref: "#/components/headers/X-Request-Id" },
    });
  });
});
