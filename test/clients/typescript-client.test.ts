import { readFileSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExposureClient } from "../../clients/typescript/index";
import { CLIENT_SCHEMA_FILE, generateClientSchema } from "../../scripts/lib/typescript-client";
import { buildOpenApiDocument } from "../../server/api/openapi";
import { hibpBreach, seedExposures } from "../helpers/breach-fixtures";
import { createTestOrg } from "../helpers/fixtures";
import { schemaValidator } from "../helpers/openapi-schema";
import { startRestServer } from "../helpers/rest";
import { drainWebhooks } from "../helpers/webhook-fixtures";
import { webhookTestBed } from "../helpers/webhook-test-bed";

/**
 * The typed client of clients/typescript (openapi-fetch over the types openapi-typescript generates
 * from the OpenAPI document) against the service over real HTTP, with a real webhook receiver. Each
 * answer is also checked against the document's schema for its path, method and status.
 */
const testDb = webhookTestBed();
let server: Awaited<ReturnType<typeof startRestServer>>;
beforeAll(async () => {
  server = await startRestServer(testDb.db);
});
afterAll(async () => {
  await server?.close();
});

type Responses = Record<string, { content?: Record<string, { schema: object }>; headers?: Record<string, unknown> }>;
const document = buildOpenApiDocument("http://localhost:3000");

/** The answer is what the document says this path, method and status answer: body schema, and X-Request-Id. */
function expectDocumented(path: string, method: string, response: Response, body: unknown) {
  const operation = (document.paths as Record<string, Record<string, { responses: Responses }>>)[path]![method]!;
  const documented = operation.responses[String(response.status)];
  expect(documented, `${method} ${path} ${response.status} is documented`).toBeDefined();
  const parsed = schemaValidator(document, documented!.content!["application/json"]!.schema).safeParse(body);
  expect(parsed.success, `${method} ${path} ${response.status}: ${JSON.stringify(body)} ${parsed.error?.message}`).toBe(true);
  expect(response.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
}

const exampleOf = (path: string) =>
  (
    (document.paths as Record<string, Record<string, { responses: Responses }>>)[path]!.post!.responses["200"]!.content![
      "application/json"
    ]!.schema as { properties: { message: { example: string } } }
  ).properties.message.example;

describe("the typed TypeScript client", () => {
  it("onboards, lists customers, checks a breach, creates a webhook endpoint and recovers its failed deliveries", async () => {
    const org = await createTestOrg(testDb.db);
    const address = `it-${randomUUID().slice(0, 8)}@client.example`;
    await seedExposures(testDb.db, [hibpBreach("ClientBreach")], { [address]: ["ClientBreach"] });
    let receiverStatus = 503;
    const receiver = await testDb.receiver(() => ({ status: receiverStatus }));
    const client = createExposureClient({
      baseUrl: server.baseUrl,
      credentials: { partnerId: org.partner.id, apiKey: org.partner.apiKey },
    });

    const created = await client.POST("/api/v1/integrations/webhooks", {
      body: { url: receiver.url, eventTypes: ["customer.created"], maxAttempts: 1, signatureScheme: "standard-webhooks" },
    });
    expect(created.response.status).toBe(200);
    expectDocumented("/api/v1/integrations/webhooks", "post", created.response, created.data);
    const endpointId = created.data!.webhook.id;
    const since = new Date(Date.now() - 1000).toISOString();

    const onboarded = await client.POST("/api/v1/integrations/customer/onboard", {
      body: {
        companyName: "Client Ltd",
        contactEmail: "it@client.example",
        customerReference: "CLIENT-1",
        price: 10,
        currencyCode: "EUR",
        assetsEmails: [address.toUpperCase()],
      },
    });
    expect(onboarded.error).toBeUndefined();
    expectDocumented("/api/v1/integrations/customer/onboard", "post", onboarded.response, onboarded.data);
    expect(onboarded.data!.message).toBe(exampleOf("/api/v1/integrations/customer/onboard"));
    const customerId = onboarded.data!.customerId;

    const listed = await client.GET("/api/v1/integrations/partner/customers", { params: { query: { page: 1, pageSize: 10 } } });
    expectDocumented("/api/v1/integrations/partner/customers", "get", listed.response, listed.data);
    expect(listed.data!.customers.map((customer) => [customer.customerId, customer.customerRef, customer.emails])).toEqual([
      [customerId, "CLIENT-1", [address]],
    ]);

    const checked = await client.POST("/api/v1/integrations/breach/check", { body: { email: address } });
    expectDocumented("/api/v1/integrations/breach/check", "post", checked.response, checked.data);
    expect(checked.data).toEqual({ success: true, breach: true });
    expect(checked.response.headers.get("ratelimit-policy")).toBe('"breach-check";q=60;w=60');
    const clean = await client.POST("/api/v1/integrations/breach/check", { body: { email: "nobody@client.example" } });
    expect(clean.data?.breach).toBe(false);

    // customer.created failed at the receiver (503, one attempt): recover queues it again, and it arrives
    await drainWebhooks(testDb.db);
    expect(receiver.requests).toHaveLength(1);
    receiverStatus = 204;
    const recovered = await client.POST("/api/v1/integrations/webhooks/{id}/recover", {
      params: { path: { id: endpointId } },
      body: { since },
    });
    expectDocumented("/api/v1/integrations/webhooks/{id}/recover", "post", recovered.response, recovered.data);
    expect(recovered.data).toEqual({ success: true, queued: 1 });
    await drainWebhooks(testDb.db);
    expect(receiver.requests).toHaveLength(2);
    expect(JSON.parse(receiver.requests[1]!.body)).toMatchObject({ type: "customer.created", data: { customer: { uuid: customerId } } });
  });

  it("types the failures as the error envelope, with the document's messages", async () => {
    const org = await createTestOrg(testDb.db);
    const client = createExposureClient({
      baseUrl: server.baseUrl,
      credentials: { partnerId: org.partner.id, apiKey: org.partner.apiKey },
    });
    const missing = await client.GET("/api/v1/integrations/customer/{customerId}/info", {
      params: { path: { customerId: randomUUID().toUpperCase() } },
    });
    expect(missing.response.status).toBe(404);
    expectDocumented("/api/v1/integrations/customer/{customerId}/info", "get", missing.response, missing.error);
    expect(missing.error).toEqual({ success: false, error: "Customer not found or does not belong to partner" });

    const stranger = createExposureClient({
      baseUrl: server.baseUrl,
      credentials: { partnerId: org.partner.id, apiKey: org.distributor.apiKey },
    });
    const refused = await stranger.POST("/api/v1/integrations/breach/check", { body: { email: "a@client.example" } });
    expect(refused.response.status).toBe(401);
    expect(refused.error?.error).toBe("Failed to verify org API key");

    const distributor = createExposureClient({
      baseUrl: server.baseUrl,
      credentials: { distributorId: org.distributor.id, apiKey: org.distributor.apiKey },
    });
    const plans = await distributor.GET("/api/v1/distributors/plans");
    expectDocumented("/api/v1/distributors/plans", "get", plans.response, plans.data);
  });

  it("is typed by the document: a call it does not describe does not compile", () => {
    const client = createExposureClient({ baseUrl: "http://127.0.0.1:9", credentials: { partnerId: randomUUID(), apiKey: "x" } });
    // Never run: `npm run typecheck` fails if the client stops refusing these.
    const typeChecks = () => [
      // @ts-expect-error companyName, contactEmail and customerReference are required
      client.POST("/api/v1/integrations/customer/onboard", { body: { price: 1 } }),
      client.POST("/api/v1/integrations/customer/onboard", {
        body: {
          companyName: "A",
          contactEmail: "a@b.example",
          customerReference: "R",
          // @ts-expect-error status is one of active, prospect
          status: "gone",
        },
      }),
      // @ts-expect-error no such path
      client.GET("/api/v1/integrations/nothing-here"),
      // @ts-expect-error recover needs the endpoint id in the path
      client.POST("/api/v1/integrations/webhooks/{id}/recover", { body: { since: "2026-01-01T00:00:00Z" } }),
    ];
    expect(typeof typeChecks).toBe("function");
  });

  it("is generated from the current OpenAPI document (else: npm run generate:client)", async () => {
    const committed = readFileSync(CLIENT_SCHEMA_FILE, "utf8");
    expect(committed === (await generateClientSchema()), "clients/typescript/schema.d.ts is stale: run npm run generate:client").toBe(true);
  });
});
