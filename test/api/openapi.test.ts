import { describe, expect, it } from "vitest";
import { z } from "zod";
import { buildOpenApiDocument } from "../../server/api/openapi";
import { buildRouteTable } from "../../server/api/rest/dispatcher";
import { appRouter } from "../../server/api/root";
import { LEGACY_EVENT_TYPES } from "../../server/events/legacy";
import { EVENT_TYPES } from "../../server/events/outbox";
import { CURRENT_BODY_SCHEMAS, LEGACY_BODY_SCHEMAS } from "../../server/webhooks/bodies";

const document = buildOpenApiDocument("http://localhost:3000");
type Op = {
  security: Array<Record<string, string[]>>;
  responses: Record<string, { content?: Record<string, { schema?: unknown; examples?: Record<string, { value: unknown }> }> }>;
};
const operation = (path: string, method: string) => (document.paths as Record<string, Record<string, Op>>)[path]![method]!;

describe("the OpenAPI document", () => {
  it("is OpenAPI 3.1 and describes every REST route", () => {
    expect(document.openapi).toBe("3.1.0");
    for (const route of buildRouteTable(appRouter)) {
      expect(operation(route.pathTemplate, route.method.toLowerCase())).toBeDefined();
    }
  });

  it("declares the header credentials of each procedure type", () => {
    expect(operation("/api/v1/health", "get").security).toEqual([]);
    expect(operation("/api/v1/distributors/plans", "get").security).toEqual([{ DistributorId: [], ApiKey: [] }]);
    expect(operation("/api/v1/integrations/partner/plans", "get").security).toEqual([{ PartnerId: [], ApiKey: [] }]);
    expect(document.components?.securitySchemes).toMatchObject({
      PartnerId: { type: "apiKey", in: "header", name: "SW-PARTNER-ID" },
      DistributorId: { type: "apiKey", in: "header", name: "SW-DISTRIBUTOR-ID" },
      ApiKey: { type: "apiKey", in: "header", name: "SW-API-KEY" },
    });
  });

  it("shows the real error envelope and each endpoint's messages, not trpc-to-openapi's shape", () => {
    const getPlan = operation("/api/v1/distributors/plans/{planId}", "get");
    expect(Object.keys(getPlan.responses).sort()).toEqual(["200", "400", "401", "404", "500"]);
    const examples = (status: string) =>
      Object.values(getPlan.responses[status]!.content!["application/json"]!.examples!).map((example) => example.value);
    expect(examples("400")).toEqual([{ success: false, error: "Plan ID must be valid" }]);
    expect(examples("404")).toEqual([{ success: false, error: "Plan not found" }]);
    expect(examples("500")).toEqual([{ success: false, error: "Internal server error" }]);
    expect(examples("401")).toContainEqual({ success: false, error: "Failed to verify org API key" });
    expect(getPlan.responses["400"]!.content!["application/json"]!.schema).toEqual({ $ref: "#/components/schemas/ErrorEnvelope" });
    expect(JSON.stringify(document)).not.toContain('"INTERNAL_SERVER_ERROR"');
  });

  it("documents the health endpoint's 503", () => {
    expect(operation("/api/v1/health", "get").responses["503"]).toBeDefined();
  });

  /** Every schema of the document, wherever it is nested. */
  function schemasIn(node: unknown, found: Array<Record<string, unknown>> = []): Array<Record<string, unknown>> {
    if (Array.isArray(node)) node.forEach((item) => schemasIn(item, found));
    else if (typeof node === "object" && node !== null) {
      const record = node as Record<string, unknown>;
      if (typeof record.type === "string" || Array.isArray(record.type)) found.push(record);
      Object.values(record).forEach((value) => schemasIn(value, found));
    }
    return found;
  }

  it("gives patterns the case-insensitivity the server has: an upper-case uuid it accepts, the document accepts", () => {
    const uuids = schemasIn(document).filter((schema) => schema.format === "uuid" && typeof schema.pattern === "string");
    expect(uuids.length).toBeGreaterThan(10);
    for (const schema of uuids) {
      const pattern = new RegExp(schema.pattern as string, "u");
      expect(pattern.test("550e8400-e29b-41d4-a716-446655440000"), schema.pattern as string).toBe(true);
      expect(pattern.test("550E8400-E29B-41D4-A716-446655440000"), schema.pattern as string).toBe(true);
      expect(pattern.test("550e8400-e29b-41d4-a716-44665544000g"), schema.pattern as string).toBe(false);
    }
  });

  it("is given no regular expression with flags: its pattern would lose them (a case-insensitive one turns case-sensitive)", () => {
    const flagged: string[] = [];
    const checkSchema = (name: string, schema: z.ZodType, io: "input" | "output") =>
      z.toJSONSchema(schema, {
        io,
        unrepresentable: "any",
        override: ({ zodSchema }) => {
          for (const check of (zodSchema as unknown as { _zod: { def: { checks?: Array<{ _zod: { def: { pattern?: RegExp } } }> } } })._zod
            .def.checks ?? []) {
            const pattern = check._zod.def.pattern;
            if (pattern && pattern.flags.replace(/[gu]/g, "") !== "") flagged.push(`${name}: /${pattern.source}/${pattern.flags}`);
          }
        },
      });
    let checked = 0;
    for (const [name, procedure] of Object.entries(appRouter._def.procedures)) {
      const def = (procedure as unknown as { _def: { inputs: z.ZodType[]; output?: z.ZodType } })._def;
      for (const input of def.inputs) checkSchema(name, input, "input");
      if (def.output) checkSchema(name, def.output, "output");
      checked++;
    }
    for (const [event, schema] of Object.entries({ ...CURRENT_BODY_SCHEMAS, ...LEGACY_BODY_SCHEMAS })) checkSchema(event, schema, "output");
    expect(checked).toBeGreaterThan(40);
    expect(flagged).toEqual([]);
  });

  it("writes integers without zod's safe-integer bounds, keeping the real ones", () => {
    const integers = schemasIn(document).filter((schema) => schema.type === "integer");
    expect(integers.length).toBeGreaterThan(20);
    for (const schema of integers) {
      expect(schema.minimum, JSON.stringify(schema)).not.toBe(Number.MIN_SAFE_INTEGER);
      expect(schema.maximum, JSON.stringify(schema)).not.toBe(Number.MAX_SAFE_INTEGER);
    }
    const threatScore = operation("/api/v1/integrations/customer/{customerId}/threat-score", "get").responses["200"]!.content![
      "application/json"
    ]!.schema as { properties: Record<string, unknown> };
    expect(threatScore.properties.threatScore).toMatchObject({ type: "integer", minimum: 0 });
    // query parameters arrive as text and are read as integers: the document says integer, with the default
    const parameters = (
      document.paths!["/api/v1/integrations/partner/customers"]!.get as { parameters: Array<{ name: string; schema: object }> }
    ).parameters;
    expect(parameters.find((parameter) => parameter.name === "pageSize")!.schema).toEqual({
      type: "integer",
      default: 20,
      description: "1 to 100, default 20",
    });
  });

  it("declares the answers' headers: X-Request-Id on every answer, the rate limit's on breach/check and breach/retrieve", () => {
    type Headers = Record<string, { $ref: string }>;
    const headersOf = (response: unknown) => (response as { headers?: Headers }).headers ?? {};
    for (const route of buildRouteTable(appRouter)) {
      for (const [status, response] of Object.entries(operation(route.pathTemplate, route.method.toLowerCase()).responses)) {
        expect(headersOf(response)["X-Request-Id"], `${route.method} ${route.pathTemplate} ${status}`).toEqual({
          $ref: "#/components/headers/X-Request-Id",
        });
      }
    }
    for (const path of ["/api/v1/integrations/breach/check", "/api/v1/integrations/breach/retrieve"]) {
      const responses = operation(path, "post").responses;
      expect(Object.keys(headersOf(responses["200"])).sort()).toEqual(["RateLimit", "RateLimit-Policy", "X-Request-Id"]);
      expect(Object.keys(headersOf(responses["429"])).sort()).toEqual(["RateLimit", "RateLimit-Policy", "Retry-After", "X-Request-Id"]);
      expect(Object.keys(headersOf(responses["401"]))).toEqual(["X-Request-Id"]);
    }
    expect(Object.keys(document.components!.headers!).sort()).toEqual(["RateLimit", "RateLimit-Policy", "Retry-After", "X-Request-Id"]);
  });

  it("gives each operation its own success message as example", () => {
    const messages = new Map<string, string>();
    for (const route of buildRouteTable(appRouter)) {
      const schema = operation(route.pathTemplate, route.method.toLowerCase()).responses["200"]?.content?.["application/json"]?.schema as
        { properties?: Record<string, { example?: string }> } | undefined;
      const example = schema?.properties?.message?.example;
      if (example) messages.set(`${route.method} ${route.pathTemplate}`, example);
    }
    expect(messages.get("POST /api/v1/integrations/customer/onboard")).toBe("Customer onboarded successfully");
    expect(messages.get("POST /api/v1/integrations/customer/offboard")).toBe("Customer offboarded successfully");
    expect(messages.get("POST /api/v1/integrations/customer/downgrade")).toBe("Customer downgraded successfully");
    expect(messages.get("PATCH /api/v1/integrations/customer/{customerId}/info")).toBe("Customer info updated successfully");
    expect(new Set(messages.values()).size).toBe(messages.size);
  });

  describe("webhooks section", () => {
    type Schema = { $ref?: string; properties?: Record<string, { const?: unknown }>; required?: string[]; additionalProperties?: boolean };
    type Hook = {
      post: {
        parameters: Array<{ in: string; name: string; required?: boolean; schema: { const?: string } }>;
        requestBody: { required: boolean; content: Record<string, { schema: Schema }> };
        responses: Record<string, unknown>;
      };
    };
    const webhooks = document.webhooks as Record<string, Hook>;
    const schemas = document.components!.schemas as Record<string, Schema>;
    const bodyOf = (name: string) => {
      const ref = webhooks[name]!.post.requestBody.content["application/json"]!.schema.$ref!;
      expect(ref).toMatch(/^#\/components\/schemas\//);
      return schemas[ref.replace("#/components/schemas/", "")]!;
    };

    it("has one POST per event of both protocols, and nothing else", () => {
      expect(Object.keys(webhooks).sort()).toEqual([...EVENT_TYPES, ...LEGACY_EVENT_TYPES].sort());
      for (const name of Object.keys(webhooks)) {
        expect(Object.keys(webhooks[name]!)).toEqual(["post"]);
        expect(webhooks[name]!.post.requestBody.required).toBe(true);
        expect(Object.keys(webhooks[name]!.post.responses)).toEqual(["2XX", "default"]);
      }
    });

    it("gives each current event its envelope and the headers of both signature schemes", () => {
      for (const type of EVENT_TYPES) {
        const body = bodyOf(type);
        expect(body.required).toEqual(["idempotencyToken", "type", "data", "timestamp"]);
        expect(body.additionalProperties).toBe(false);
        expect(body.properties!.type!.const).toBe(type);
        expect(webhooks[type]!.post.parameters.map((p) => [p.in, p.name, p.required ?? false])).toEqual([
          ["header", "x-signature", false],
          ["header", "x-token", false],
          ["header", "webhook-id", false],
          ["header", "webhook-timestamp", false],
          ["header", "webhook-signature", false],
        ]);
      }
    });

    it("gives each earlier-protocol event its envelope and its two headers", () => {
      for (const event of LEGACY_EVENT_TYPES) {
        const body = bodyOf(event);
        expect(body.required).toEqual(["event", "data", "created_at"]);
        expect(body.properties!.event!.const).toBe(event);
        expect(webhooks[event]!.post.parameters.map((p) => [p.name, p.required, p.schema.const])).toEqual([
          ["x-service-event", true, event],
          ["x-service-signature", true, undefined],
        ]);
      }
    });

    it("needs none of the API's credentials (the service calls the receiver), and names each operation", () => {
      const operationIds = new Set<string>();
      for (const name of Object.keys(webhooks)) {
        const post = webhooks[name]!.post as Hook["post"] & { security?: unknown; operationId?: string };
        expect(post.security, name).toEqual([]);
        expect(post.operationId, name).toMatch(/^(legacy-)?event-[a-z-]+$/);
        operationIds.add(post.operationId!);
      }
      expect(operationIds.size).toBe(Object.keys(webhooks).length);
    });

    it("refers only to schemas the document has", () => {
      const refs = [...JSON.stringify(document).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((match) => match[1]!);
      expect(refs.length).toBeGreaterThan(EVENT_TYPES.length + LEGACY_EVENT_TYPES.length);
      for (const name of new Set(refs)) expect(schemas[name], name).toBeDefined();
    });
  });
});

describe("the OpenAPI document's top-level tags", () => {
  it("describe every tag an operation or event uses, each once, and no unused one", () => {
    const used = new Set<string>();
    for (const section of [document.paths ?? {}, document.webhooks ?? {}]) {
      for (const item of Object.values(section)) {
        for (const operation of Object.values(item ?? {})) for (const tag of (operation as { tags?: string[] }).tags ?? []) used.add(tag);
      }
    }
    const tags = document.tags ?? [];
    expect(tags.map(({ name }) => name).sort()).toEqual([...used].sort());
    for (const tag of tags) expect(tag.description, tag.name).toMatch(/\S{3}/);
  });
});
