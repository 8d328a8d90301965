import { expect, test } from "@playwright/test";
import { admin, distributorHeaders, partnerHeaders, requireAdminCli } from "../demo";

test("health answers ok", async ({ request }) => {
  const response = await request.get("/api/v1/health");
  expect(response.status()).toBe(200);
  expect(await response.json()).toEqual({ success: true, status: "ok", database: "ok" });
});

test("the demo keys printed by npm start work against authenticated endpoints", async ({ request }) => {
  const partnerPlans = await request.get("/api/v1/integrations/partner/plans", { headers: partnerHeaders() });
  expect(partnerPlans.status()).toBe(200);
  const body = await partnerPlans.json();
  expect(body.success).toBe(true);
  expect(body.data.length).toBeGreaterThanOrEqual(2);

  const legacy = await request.get("/api/integrations/partner/plans", { headers: partnerHeaders() });
  expect(await legacy.json()).toEqual(body);

  const plan = await request.get(`/api/v1/distributors/plans/${body.data[0].id}`, { headers: distributorHeaders() });
  expect((await plan.json()).data.id).toBe(body.data[0].id);
});

test("failures come in the {success:false, error} envelope", async ({ request }) => {
  const noHeaders = await request.get("/api/v1/integrations/partner/plans");
  expect(noHeaders.status()).toBe(401);
  expect(await noHeaders.json()).toEqual({ success: false, error: "Partner ID and API key are required in headers" });
  const unknown = await request.get("/api/v1/no/such/path");
  expect(unknown.status()).toBe(404);
  expect(await unknown.json()).toEqual({ success: false, error: "Not found" });
  const wrongMethod = await request.delete("/api/v1/health");
  expect(wrongMethod.status()).toBe(405);
});

test("the OpenAPI document is served", async ({ request }) => {
  const response = await request.get("/api/openapi.json");
  expect(response.status()).toBe(200);
  const document = await response.json();
  expect(document.openapi).toBe("3.1.0");
  expect(Object.keys(document.paths)).toContain("/api/v1/integrations/partner/plans");
});

test("the admin CLI works beside the running server on PostgreSQL", async ({ request }) => {
  requireAdminCli();
  const distributor = await admin("create-distributor", "--name", "E2E CLI Distributor");
  const partner = await admin("create-partner", "--distributor", String(distributor.id), "--name", "E2E CLI Partner");
  const response = await request.get("/api/v1/integrations/partner/plans", {
    headers: { "SW-PARTNER-ID": String(partner.id), "SW-API-KEY": String(partner.apiKey) },
  });
  expect(response.status()).toBe(200);
});
