import { z } from "zod";
import { sendTestEvent } from "../../../webhooks/delivery-log";
import { successTrue } from "../../schemas";
import { deliveryResponse, deliverySchema, endpointIdInput } from "./schemas";
import type { WebhookSurface } from "./surfaces";

/** Serves all three surfaces. */
export function sendTest(surface: WebhookSurface) {
  return surface.procedure
    .meta({
      audit: { action: "webhook.test", target: { type: "webhook", key: "id" } },
      openapi: {
        method: "POST",
        path: `${surface.basePath}/{id}/test`,
        tags: surface.tags,
        summary: "Send a test event",
        description:
          "Queues a signed sample event of `eventType` (default: the endpoint's first subscribed type), signed and sent like a real " +
          "one, with one attempt, also to a disabled endpoint. Follow it in the delivery log.",
      },
      errors: { failure: "Failed to send test event" },
      responses: { 404: "Webhook not found" },
    })
    .input(z.object({ id: endpointIdInput, eventType: z.string().optional().meta({ example: "customer.breach.found" }) }))
    .output(z.object({ success: successTrue, delivery: deliverySchema }))
    .mutation(async ({ ctx, input }) => ({
      success: true as const,
      delivery: deliveryResponse(await sendTestEvent(ctx.db, ctx.owner, surface.protocol, input.id, input.eventType)),
    }));
}
