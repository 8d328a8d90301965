import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "../../server/api/openapi";

type Operation = { security: unknown[]; responses: Record<string, { description?: string }> };

describe("the OpenAPI document describes the customer and distributor endpoints", () => {
  const document = buildOpenApiDocument("http://localhost:3000");
  const operation = (path: string, method: string) => (document.paths?.[path] as Record<string, Operation> | undefined)?.[method];

  it.each([
    ["/api/v1/integrations/customer/onboard", "post"],
    ["/api/v1/integrations/customer/offboard", "post"],
    ["/api/v1/integrations/customer/reactivate", "post"],
    ["/api/v1/integrations/customer/upgrade", "post"],
    ["/api/v1/integrations/customer/downgrade", "post"],
    ["/api/v1/integrations/customer/{customerId}/info", "get"],
    ["/api/v1/integrations/customer/{customerId}/info", "patch"],
    ["/api/v1/integrations/customer/{customerId}/assets", "get"],
    ["/api/v1/integrations/customer/{customerId}/assets", "patch"],
    ["/api/v1/integrations/customer/{customerId}/threat-score", "get"],
    ["/api/v1/integrations/partner/customers", "get"],
    ["/api/v1/integrations/partner/analytics", "get"],
    ["/api/v1/distributors/partners", "post"],
    ["/api/v1/distributors/partners/{partnerUuid}", "get"],
    ["/api/v1/distributors/partners/{partnerUuid}", "patch"],
    ["/api/v1/distributors/partners/{partnerUuid}/api-keys", "post"],
    ["/api/v1/distributors/partners/{partnerUuid}/api-keys", "get"],
    ["/api/v1/distributors/partners/{partnerUuid}/api-keys/{keyId}", "delete"],
    ["/api/v1/distributors/billing-codes", "get"],
    ["/api/v1/distributors/billing-codes/{billingCodeId}", "get"],
  ])("%s %s: credentials, success and failure answers", (path, method) => {
    const op = operation(path, method);
    expect(op).toBeDefined();
    expect(op!.security.length).toBe(1);
    expect(Object.keys(op!.responses)).toEqual(expect.arrayContaining(["200", "401", "500"]));
  });

  it("lists the lifecycle refusals with their messages", () => {
    const upgrade = operation("/api/v1/integrations/customer/upgrade", "post")!;
    expect(upgrade.responses["409"]!.description).toBe("Customer is already active");
    expect(upgrade.responses["422"]!.description).toBe("Customer cannot be upgraded: customer is not a prospect");
    expect(upgrade.responses["500"]!.description).toBe("Failed to upgrade customer");
  });
});
