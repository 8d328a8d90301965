import { z } from "zod";
import { deleteEndpoint as deleteEndpointService } from "../../../webhooks/endpoints";
import { successTrue } from "../../schemas";
import { endpointIdInput } from "./schemas";
import type { WebhookSurface } from "./surfaces";

/** Serves all three surfaces: the answer has the same shape on each. */
export function deleteEndpoint(surface: WebhookSurface) {
  return surface.procedure
    .meta({
      audit: { action: "webhook.delete", target: { type: "webhook", key: "id" } },
      openapi: {
        method: "DELETE",
        path: `${surface.basePath}/{id}`,
        tags: surface.tags,
        summary: "Delete a webhook endpoint",
        description: "Removes the endpoint and all its delivery logs permanently.",
      },
      errors: { failure: "Failed to delete webhook" },
      responses: { 400: "Invalid webhook ID", 404: "Webhook not found" },
    })
    .input(z.object({ id: endpointIdInput }))
    .output(z.object({ success: successTrue }))
    .mutation(async ({ ctx, input }) => {
      await deleteEndpointService(ctx.db, ctx.owner, surface.protocol, input.id);
      return { success: true as const };
    });
}
