import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { appRouter } from "../../server/api/root";
import { buildRouteTable } from "../../server/api/rest/dispatcher";
import { checkConfig } from "../../server/config";
import { onboardBody } from "../helpers/customers";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { restTestBed } from "../helpers/rest";

/** Unknown body keys on every write (docs/api.md, "Request bodies"), and API_UNKNOWN_FIELDS=ignore. */
const { testDb, server } = restTestBed();
let org: TestOrg;

beforeAll(async () => {
  org = await createTestOrg(testDb.db);
});
afterEach(() => {
  vi.unstubAllEnvs();
});

const ONBOARD = "/api/v1/integrations/customer/onboard";
const UUID = "550e8400-e29b-41d4-a716-446655440000";

async function customersOf(reference: string) {
  return testDb.db.customer.findMany({ where: { partnerId: org.partner.id, reference } });
}

describe("unknown body keys", () => {
  it("refuses a response-only name with a hint, and writes nothing (customerStatus once made a billed, active customer)", async () => {
    const body = onboardBody({ customerStatus: "prospect" });
    const res = await server.api.post(ONBOARD, body, org.partner.headers);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ success: false, error: "Validation failed: Unknown field customerStatus (send status)" });
    expect(await customersOf(body.customerReference)).toEqual([]);
  });

  it("suggests the nearest known field for a misspelt one, and writes nothing", async () => {
    const { companyName, assetsDomains, ...rest } = onboardBody();
    for (const [body, error] of [
      [{ ...rest, companyName, assetsDomain: assetsDomains }, "Validation failed: Unknown field assetsDomain: did you mean assetsDomains?"],
      [{ ...rest, assetsDomains, companyNmae: companyName }, "Validation failed: Unknown field companyNmae: did you mean companyName?"],
      [
        { ...rest, assetsDomains, companyName, localecode: "en-GB" },
        "Validation failed: Unknown field localecode: did you mean localeCode?",
      ],
    ] as const) {
      const res = await server.api.post(ONBOARD, body, org.partner.headers);
      expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: { success: false, error } });
      expect(await customersOf(rest.customerReference)).toEqual([]);
    }
  });

  it("names a key like no known field without a hint", async () => {
    const res = await server.api.post(ONBOARD, onboardBody({ somethingElse: true }), org.partner.headers);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("Validation failed: Unknown field somethingElse");
  });

  it("accepts and ignores what existing clients send (platformAccess), on the unversioned path too", async () => {
    const body = onboardBody({ platformAccess: true });
    const res = await server.api.post(ONBOARD.replace("/api/v1/", "/api/"), body, org.partner.headers);
    expect(res.status).toBe(200);
    const [customer] = await customersOf(body.customerReference);
    expect(customer?.status).toBe("active");
    const patched = await server.api.patch(
      `/api/v1/integrations/customer/${customer!.id}/info`,
      { companyName: "Acme Group", platformAccess: true },
      org.partner.headers,
    );
    expect(patched.status).toBe(200);
  });

  it("checks the credentials first", async () => {
    const res = await server.api.post(ONBOARD, onboardBody({ customerStatus: "prospect" }), {});
    expect(res.status).toBe(401);
  });

  it("gives the hint only where the field it names exists", async () => {
    const res = await server.api.post(
      "/api/v1/integrations/webhooks",
      { url: "https://93.184.216.34/hook", eventTypes: ["customer.created"], customerStatus: "active" },
      org.partner.headers,
    );
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("Validation failed: Unknown field customerStatus");
  });

  // Every POST, PUT and PATCH path the service serves: the refusal comes before anything is looked up.
  const writes = buildRouteTable(appRouter).filter((route) => route.bodyFields);
  it("covers every write path", () => {
    expect(writes.length).toBeGreaterThan(30);
  });
  it.each(writes.map((route) => [route.method, route.pathTemplate, route.meta.auth] as const))(
    "%s %s refuses an unknown key",
    async (method, template, auth) => {
      const headers = auth === "distributor" ? org.distributor.headers : org.partner.headers;
      const path = template.replace(/\{\w+\}/g, UUID);
      const res = await server.api.call(method, path, { body: { bogusField: 1 }, headers });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ success: false, error: "Validation failed: Unknown field bogusField" });
    },
  );
});

describe("API_UNKNOWN_FIELDS=ignore", () => {
  it("ignores unknown keys for clients being migrated: the customer is onboarded as if they were not sent", async () => {
    vi.stubEnv("API_UNKNOWN_FIELDS", "ignore");
    const body = onboardBody({ customerStatus: "prospect", anything: { at: "all" } });
    const res = await server.api.post(ONBOARD, body, org.partner.headers);
    expect(res.status).toBe(200);
    const [customer] = await customersOf(body.customerReference);
    expect(customer?.status).toBe("active");
    const webhook = await server.api.post(
      "/api/v1/integrations/webhooks",
      { url: "https://93.184.216.34/hook", eventTypes: ["customer.created"], secret: "mine" },
      org.partner.headers,
    );
    expect(webhook.status).toBe(200);
  });

  it("refuses another value at start", () => {
    vi.stubEnv("API_UNKNOWN_FIELDS", "warn");
    expect(() => checkConfig()).toThrow('API_UNKNOWN_FIELDS must be refuse or ignore (got "warn")');
  });
});
