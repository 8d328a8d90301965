import { z } from "zod";
import { partnerProcedure } from "../../trpc";
import { sendChannelTest } from "../../../webhooks/channels/test-send";
import { successTrue } from "../../schemas";
import { deliveryResponse, deliverySchema, endpointIdInput } from "../webhooks/schemas";
import { channelSurface } from "./surface";

export const sendTest = partnerProcedure
  .meta({
    audit: { action: "channel.test", target: { type: "channel", key: "id" } },
    openapi: {
      method: "POST",
      path: `${channelSurface.basePath}/{id}/test`,
      tags: channelSurface.tags,
      summary: "Send a test message",
      description:
        "Queues a sample message of `eventType` (default: the channel's first type), marked as a test, formatted and sent like a real one " +
        "with one attempt, also to a disabled channel. Follow it in the delivery log.",
    },
    errors: { failure: "Failed to send test message" },
    responses: { 404: "Webhook not found" },
  })
  .input(z.object({ id: endpointIdInput, eventType: z.string().optional().meta({ example: "customer.breach.found" }) }))
  .output(z.object({ success: successTrue, delivery: deliverySchema }))
  .mutation(async ({ ctx, input }) => ({
    success: true as const,
    delivery: deliveryResponse(await sendChannelTest(ctx.db, ctx.caller.partnerId, input.id, input.eventType)),
  }));
