import { z } from "zod";
import { listEndpoints as listEndpointsService } from "../../../webhooks/endpoints";
import { emptyInput, successTrue } from "../../schemas";
import { endpointResponse, endpointSchema } from "./schemas";
import type { WebhookSurface } from "./surfaces";

export function listEndpoints(surface: WebhookSurface) {
  return surface.procedure
    .meta({
      openapi: {
        method: "GET",
        path: surface.basePath,
        tags: surface.tags,
        summary: "List webhook endpoints",
        description: "Newest first.",
      },
      errors: { failure: "Failed to list webhooks" },
    })
    .input(emptyInput)
    .output(z.object({ success: successTrue, webhooks: z.array(endpointSchema) }))
    .query(async ({ ctx }) => ({
      success: true as const,
      webhooks: (await listEndpointsService(ctx.db, ctx.owner, "current")).map(endpointResponse),
    }));
}
