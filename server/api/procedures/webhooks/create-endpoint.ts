import { z } from "zod";
import { createEndpoint as createEndpointService } from "../../../webhooks/endpoints";
import { successTrue } from "../../schemas";
import { endpointCreateBody, endpointResponse, endpointSchema } from "./schemas";
import type { WebhookSurface } from "./surfaces";

export function createEndpoint(surface: WebhookSurface) {
  return surface.procedure
    .meta({
      openapi: {
        method: "POST",
        path: surface.basePath,
        tags: surface.tags,
        summary: "Register a webhook endpoint",
        description:
          "The URL must be https and resolve to a public address. The response carries `webhook.secret`: the " +
          "organization's active signing token (generated when there is none); no other response shows it.",
      },
      errors: { failure: "Failed to create webhook" },
    })
    .input(endpointCreateBody)
    .output(z.object({ success: successTrue, webhook: endpointSchema.extend({ secret: z.string() }) }))
    .mutation(async ({ ctx, input }) => {
      const { endpoint, secret } = await createEndpointService(ctx.db, ctx.owner, "current", input);
      return { success: true as const, webhook: { ...endpointResponse(endpoint), secret } };
    });
}
