import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "../../server/api/openapi";
import { buildRouteTable } from "../../server/api/rest/dispatcher";
import { appRouter } from "../../server/api/root";

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
});
