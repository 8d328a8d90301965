import { z } from "zod";
import { getEndpoint as getEndpointService } from "../../../webhooks/endpoints";
import { successTrue } from "../../schemas";
import { endpointIdInput, endpointResponse, endpointSchema } from "./schemas";
import type { WebhookSurface } from "./surfaces";

export function getEndpoint(surface: WebhookSurface) {
  return surface.procedure
    .meta({
      openapi: { method: "GET", path: `${surface.basePath}/{id}`, tags: surface.tags, summary: "Get a webhook endpoint" },
      errors: { failure: "Failed to retrieve webhook" },
      responses: { 400: "Invalid webhook ID", 404: "Webhook not found" },
    })
    .input(z.object({ id: endpointIdInput }))
    .output(z.object({ success: successTrue, webhook: endpointSchema }))
    .query(async ({ ctx, input }) => ({
      success: true as const,
      webhook: endpointResponse(await getEndpointService(ctx.db, ctx.owner, "current", input.id)),
    }));
}
