import { webhookOwnerOf, type WebhookContext } from "../../../audit";
import { z } from "zod";
import { updateEndpoint as updateEndpointService, getEndpoint } from "../../../../webhooks/endpoints";
import { successTrue } from "../../../schemas";
import { endpointIdInput, legacyEndpointResponse, legacyEndpointSchema, legacyEventSchema, urlInput } from "../schemas";
import { legacySurface } from "../surfaces";

export const updateLegacyEndpoint = legacySurface.procedure
  .meta({
    audit: {
      action: "webhook.update",
      target: { type: "webhook", key: "id" },
      before: (ctx: WebhookContext, input) => getEndpoint(ctx.db, webhookOwnerOf(ctx), "legacy", String(input.id)),
      reload: true,
    },
    openapi: {
      method: "PATCH",
      path: `${legacySurface.basePath}/{id}`,
      tags: legacySurface.tags,
      summary: "Update a webhook (earlier protocol)",
      description: "Send at least one of url, events, active.",
    },
    errors: { failure: "Failed to update webhook" },
    responses: { 400: "Invalid webhook ID", 404: "Webhook not found" },
  })
  .input(
    z
      .object({
        id: endpointIdInput,
        url: urlInput.optional(),
        events: z.array(legacyEventSchema).min(1, { error: "At least one event is required" }).optional(),
        active: z.boolean().optional(),
      })
      .refine((input) => [input.url, input.events, input.active].some((value) => value !== undefined), {
        error: "At least one of url, events or active is required",
      }),
  )
  .output(z.object({ success: successTrue, webhook: legacyEndpointSchema }))
  .mutation(async ({ ctx, input }) => {
    const endpoint = await updateEndpointService(ctx.db, ctx.owner, "legacy", input.id, {
      url: input.url,
      eventTypes: input.events,
      enabled: input.active,
    });
    return { success: true as const, webhook: legacyEndpointResponse(endpoint) };
  });
