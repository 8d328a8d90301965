import { webhookOwnerOf, type WebhookContext } from "../../audit";
import { z } from "zod";
import { updateEndpoint as updateEndpointService, getEndpoint } from "../../../webhooks/endpoints";
import { successTrue } from "../../schemas";
import { endpointResponse, endpointSchema, endpointUpdateBody } from "./schemas";
import type { WebhookSurface } from "./surfaces";

export function updateEndpoint(surface: WebhookSurface) {
  return surface.procedure
    .meta({
      audit: {
        action: "webhook.update",
        target: { type: "webhook", key: "id" },
        before: (ctx: WebhookContext, input) => getEndpoint(ctx.db, webhookOwnerOf(ctx), "current", String(input.id)),
        reload: true,
      },
      openapi: {
        method: "PATCH",
        path: `${surface.basePath}/{id}`,
        tags: surface.tags,
        summary: "Update a webhook endpoint",
        description:
          "Send at least one field. `enabled: false` disables the endpoint (disabledKind `manual`); `enabled: true` on a disabled " +
          "endpoint clears disabledKind, disabledReason, disabledAt and the failure run.",
      },
      errors: { failure: "Failed to update webhook" },
      responses: { 404: "Webhook not found" },
    })
    .input(endpointUpdateBody)
    .output(z.object({ success: successTrue, webhook: endpointSchema }))
    .mutation(async ({ ctx, input }) => {
      const { id, ...changes } = input;
      return { success: true as const, webhook: endpointResponse(await updateEndpointService(ctx.db, ctx.owner, "current", id, changes)) };
    });
}
