import { z } from "zod";
import { updateEndpoint as updateEndpointService } from "../../../webhooks/endpoints";
import { successTrue } from "../../schemas";
import { endpointIdInput, endpointResponse, endpointSchema, eventTypeSchema, maxAttemptsInput, urlInput } from "./schemas";
import type { WebhookSurface } from "./surfaces";

export function updateEndpoint(surface: WebhookSurface) {
  return surface.procedure
    .meta({
      openapi: {
        method: "PATCH",
        path: `${surface.basePath}/{id}`,
        tags: surface.tags,
        summary: "Update a webhook endpoint",
        description: "Send at least one field. Enabling an endpoint the service disabled clears its disabledReason.",
      },
      errors: { failure: "Failed to update webhook" },
      responses: { 404: "Webhook not found" },
    })
    .input(
      z
        .object({
          id: endpointIdInput,
          url: urlInput.optional(),
          eventTypes: z.array(eventTypeSchema).min(1, { error: "At least one event type is required" }).optional(),
          enabled: z.boolean().optional(),
          maxAttempts: maxAttemptsInput.optional(),
        })
        .refine((input) => [input.url, input.eventTypes, input.enabled, input.maxAttempts].some((value) => value !== undefined), {
          error: "At least one of url, eventTypes, enabled or maxAttempts is required",
        }),
    )
    .output(z.object({ success: successTrue, webhook: endpointSchema }))
    .mutation(async ({ ctx, input }) => {
      const { id, ...changes } = input;
      return { success: true as const, webhook: endpointResponse(await updateEndpointService(ctx.db, ctx.owner, "current", id, changes)) };
    });
}
