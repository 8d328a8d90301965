import { beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { GET as getOpenApiDocument } from "../../app/api/openapi.json/route";
import { LEGACY_EVENT_TYPES } from "../../server/events/legacy";
import { EVENT_TYPES } from "../../server/events/outbox";
import { createEndpoint } from "../../server/webhooks/endpoints";
import { createTestOrg } from "../helpers/fixtures";
import { schemaValidator } from "../helpers/openapi-schema";
import { breach, createTestCustomer, drainWebhooks, recordTestEvent } from "../helpers/webhook-fixtures";
import type { ReceivedRequest } from "../helpers/webhook-receiver";
import { webhookTestBed } from "../helpers/webhook-test-bed";

/**
 * The OpenAPI document's `webhooks` section against the wire: real events of every type, routed
 * and delivered by the real engine to real receivers (both signature schemes and the earlier
 * protocol), each request checked against the schema and headers the served document gives its
 * event, compiled to a validator with zod's fromJSONSchema.
 */
interface Parameter {
  in: string;
  name: string;
  required?: boolean;
  schema: object;
}
interface WebhookOperation {
  parameters: Parameter[];
  requestBody: { content: { "application/json": { schema: object } } };
}
interface Document {
  webhooks: Record<string, { post: WebhookOperation }>;
  components: { schemas: Record<string, object> };
}

const testDb = webhookTestBed();
let document: Document;

beforeAll(async () => {
  document = (await getOpenApiDocument().json()) as Document;
});

const compile = (schema: object) => schemaValidator(document, schema);

function bodyValidator(name: string): z.ZodType {
  const operation = document.webhooks[name]?.post;
  expect(operation, `webhooks["${name}"]`).toBeDefined();
  return compile(operation!.requestBody.content["application/json"].schema);
}

/** The problems of a request's headers against its event's documented header parameters. */
function headerProblems(name: string, request: ReceivedRequest): string[] {
  const problems: string[] = [];
  for (const parameter of document.webhooks[name]!.post.parameters.filter((p) => p.in === "header")) {
    const value = request.headers[parameter.name];
    if (value === undefined) {
      if (parameter.required) problems.push(`${parameter.name} missing`);
      continue;
    }
    const parsed = compile(parameter.schema).safeParse(value);
    if (!parsed.success) problems.push(`${parameter.name}: ${parsed.error.issues[0]!.message}`);
  }
  return problems;
}

describe("the OpenAPI document's webhooks section against real deliveries", () => {
  it("describes every request the engine sends, for every event of both protocols and both signature schemes", async () => {
    const org = await createTestOrg(testDb.db);
    let partnerToken = "";
    const signing = await testDb.receiver(() => ({ status: 200, signWith: partnerToken }));
    const standard = await testDb.receiver(() => ({ status: 204 }));
    const legacy = await testDb.receiver(() => ({ status: 200 }));
    partnerToken = (
      await createEndpoint(testDb.db, { partnerId: org.partner.id }, "current", { url: signing.url, eventTypes: [...EVENT_TYPES] })
    ).secret;
    await createEndpoint(testDb.db, { distributorId: org.distributor.id }, "current", {
      url: standard.url,
      eventTypes: [...EVENT_TYPES],
      signatureScheme: "standard-webhooks",
    });
    await createEndpoint(testDb.db, { partnerId: org.partner.id }, "legacy", { url: legacy.url, eventTypes: [...LEGACY_EVENT_TYPES] });

    const active = await createTestCustomer(testDb.db, org.partner.id, { emails: ["a@acme.example"], domains: ["acme.example"] });
    const prospect = await createTestCustomer(testDb.db, org.partner.id, { status: "prospect", emails: ["p@prospect.example"] });
    const found = breach("ExampleBreach", ["a@acme.example"]);
    await recordTestEvent(testDb.db, active, "customer.created", {});
    await recordTestEvent(testDb.db, active, "customer.asset.added", {
      assets: [
        { uuid: crypto.randomUUID(), type: "email", value: "b@acme.example" },
        { uuid: crypto.randomUUID(), type: "domain", value: "acme.example" },
      ],
    });
    await recordTestEvent(testDb.db, active, "customer.asset.removed", {
      assets: [{ uuid: crypto.randomUUID(), type: "email", value: "b@acme.example" }],
    });
    await recordTestEvent(testDb.db, active, "customer.breach.found", {
      // A stealer-log breach carries the captured websites.
      breaches: [found, { ...breach("OtherBreach", ["a@acme.example"]), websiteDomains: ["bank.example", "mail.example"] }],
    });
    await recordTestEvent(testDb.db, active, "customer.breach.resolved", { breaches: [found] });
    await recordTestEvent(testDb.db, active, "customer.breach.unresolved", { breaches: [found] });
    await recordTestEvent(testDb.db, active, "customer.domain.verified", {
      domain: "acme.example",
      method: "dns",
      verifiedAt: new Date().toISOString(),
    });
    await recordTestEvent(testDb.db, active, "customer.deleted", {});
    await recordTestEvent(testDb.db, prospect, "customer.breach.found", { breaches: [breach("HiddenBreach", ["p@prospect.example"])] });
    await recordTestEvent(testDb.db, prospect, "customer.breach.resolved", { breaches: [breach("HiddenBreach", ["p@prospect.example"])] });
    await drainWebhooks(testDb.db);

    expect(signing.requests).toHaveLength(10);
    expect(standard.requests).toHaveLength(10);
    // breach.new ×2, breach.resolved ×2, breach.unresolved, email.added, email.removed
    expect(legacy.requests).toHaveLength(7);

    const seen = new Set<string>();
    for (const request of [...signing.requests, ...standard.requests]) {
      const body = JSON.parse(request.body) as { type: string; data: Record<string, unknown> };
      const parsed = bodyValidator(body.type).safeParse(body);
      expect(parsed.success, `${body.type}: ${request.body} ${parsed.error?.message}`).toBe(true);
      expect(headerProblems(body.type, request)).toEqual([]);
      seen.add(body.type);
      if ("partnerId" in body.data) seen.add(`${body.type} (redacted)`);
    }
    // ...and a body with them is among those the document describes.
    expect(signing.requests.some((request) => request.body.includes('"websiteDomains":["bank.example","mail.example"]'))).toBe(true);
    for (const request of legacy.requests) {
      const body = JSON.parse(request.body) as { event: string };
      const parsed = bodyValidator(body.event).safeParse(body);
      expect(parsed.success, `${body.event}: ${request.body} ${parsed.error?.message}`).toBe(true);
      expect(headerProblems(body.event, request)).toEqual([]);
      seen.add(body.event);
    }
    expect([...seen].sort()).toEqual(
      [...EVENT_TYPES, ...LEGACY_EVENT_TYPES, "customer.breach.found (redacted)", "customer.breach.resolved (redacted)"].sort(),
    );
    // each scheme's own headers are there, and are what the document says they are
    expect(signing.requests.every((r) => typeof r.headers["x-signature"] === "string" && typeof r.headers["x-token"] === "string")).toBe(
      true,
    );
    expect(
      standard.requests.every((r) =>
        ["webhook-id", "webhook-timestamp", "webhook-signature"].every((h) => typeof r.headers[h] === "string"),
      ),
    ).toBe(true);
  });

  it("refuses bodies that differ from what the service sends", async () => {
    const org = await createTestOrg(testDb.db);
    const target = await testDb.receiver(() => ({ status: 204 }));
    await createEndpoint(testDb.db, { partnerId: org.partner.id }, "current", {
      url: target.url,
      eventTypes: ["customer.breach.found"],
      signatureScheme: "standard-webhooks",
    });
    const customer = await createTestCustomer(testDb.db, org.partner.id, { emails: ["a@acme.example"] });
    await recordTestEvent(testDb.db, customer, "customer.breach.found", { breaches: [breach("ExampleBreach", ["a@acme.example"])] });
    await drainWebhooks(testDb.db);
    const body = JSON.parse(target.requests[0]!.body);
    const validator = bodyValidator("customer.breach.found");
    expect(validator.safeParse(body).success).toBe(true);

    const variants = [
      { ...body, extra: true },
      { ...body, timestamp: undefined },
      { ...body, timestamp: String(body.timestamp) },
      { ...body, type: "customer.breach.resolved" },
      { ...body, data: { ...body.data, breaches: [] } },
      { ...body, data: { ...body.data, customer: { ...body.data.customer, email: "x@y.example" } } },
      { ...body, data: { ...body.data, breaches: [{ ...body.data.breaches[0], name: undefined }] } },
    ];
    for (const variant of variants)
      expect(validator.safeParse(JSON.parse(JSON.stringify(variant))).success, JSON.stringify(variant)).toBe(false);
  });
});
