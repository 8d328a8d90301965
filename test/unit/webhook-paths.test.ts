import { describe, expect, it } from "vitest";
import { endpointApiPath, WEBHOOK_BASE_PATHS } from "../../server/webhooks/api-paths";

/** The webhook surfaces' paths (docs/webhooks.md); that the procedures are served there: test/webhooks/health-notices.test.ts. */
describe("endpointApiPath", () => {
  const id = "6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b";

  it("puts a current endpoint on its owner's surface, an earlier-protocol one on the unversioned path, a channel on the channels' path", () => {
    expect(endpointApiPath({ id, protocol: "current", owner: "partner" })).toBe(`/api/v1/integrations/webhooks/${id}`);
    expect(endpointApiPath({ id, protocol: "current", owner: "distributor" })).toBe(`/api/v1/distributors/webhooks/${id}`);
    expect(endpointApiPath({ id, protocol: "legacy", owner: "partner" })).toBe(`/api/integrations/webhooks/${id}`);
    expect(endpointApiPath({ id, protocol: "channel", owner: "partner" })).toBe(`/api/v1/integrations/channels/${id}`);
    expect(Object.values(WEBHOOK_BASE_PATHS)).toHaveLength(4);
  });
});
