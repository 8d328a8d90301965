import { z } from "zod";
import { createEndpoint as createEndpointService } from "../../../../webhooks/endpoints";
import { successTrue } from "../../../schemas";
import { legacyEndpointResponse, legacyEndpointSchema, legacyEventSchema, urlInput } from "../schemas";
import { legacySurface } from "../surfaces";

export const createLegacyEndpoint = legacySurface.procedure
  .meta({
    audit: { action: "webhook.create", target: { type: "webhook" } },
    openapi: {
      method: "POST",
      path: legacySurface.basePath,
      tags: legacySurface.tags,
      summary: "Create a webhook (earlier protocol)",
      description:
        "Deliveries carry X-Service-Event and X-Service-Signature (sha256=<hex> of the body with this webhook's secret). " +
        "The secret is in this response only.",
    },
    errors: { failure: "Failed to create webhook" },
  })
  .input(
    z.object({
      url: urlInput,
      events: z.array(legacyEventSchema, { error: "events is required" }).min(1, { error: "At least one event is required" }),
      active: z.boolean().optional().meta({ description: "Default true" }),
    }),
  )
  .output(z.object({ success: successTrue, webhook: legacyEndpointSchema.extend({ secret: z.string() }) }))
  .mutation(async ({ ctx, input }) => {
    const { endpoint, secret } = await createEndpointService(ctx.db, ctx.owner, "legacy", {
      url: input.url,
      eventTypes: input.events,
      enabled: input.active,
    });
    return { success: true as const, webhook: { ...legacyEndpointResponse(endpoint), secret } };
  });
