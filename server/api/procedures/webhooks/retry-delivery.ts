import { z } from "zod";
import { DELIVERY_ALREADY_QUEUED, DELIVERY_NOT_FOUND, requeueDelivery } from "../../../webhooks/delivery-log";
import { successTrue } from "../../schemas";
import { deliveryResponse, deliverySchema, endpointIdInput } from "./schemas";
import type { WebhookSurface } from "./surfaces";

/** Serves all three surfaces. */
export function retryDelivery(surface: WebhookSurface) {
  return surface.procedure
    .meta({
      audit: { action: "webhook.delivery-retry", target: { type: "webhook", key: "id" } },
      openapi: {
        method: "POST",
        path: `${surface.basePath}/{id}/deliveries/{deliveryId}/retry`,
        tags: surface.tags,
        summary: "Re-queue a delivery",
        description:
          "A delivered or failed delivery is queued again with a fresh round of attempts, the same body and idempotency token; a pending delivery waiting for its next attempt is attempted now.",
      },
      errors: { failure: "Failed to retry delivery" },
      responses: { 404: DELIVERY_NOT_FOUND, 409: DELIVERY_ALREADY_QUEUED, 422: "Delivery cannot be retried: the webhook is disabled" },
    })
    .input(z.object({ id: endpointIdInput, deliveryId: z.string().meta({ format: "uuid" }) }))
    .output(z.object({ success: successTrue, delivery: deliverySchema }))
    .mutation(async ({ ctx, input }) => ({
      success: true as const,
      delivery: deliveryResponse(await requeueDelivery(ctx.db, ctx.owner, surface.protocol, input.id, input.deliveryId)),
    }));
}
