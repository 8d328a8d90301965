import { z } from "zod";
import { partnerProcedure } from "../../trpc";
import { getChannel } from "../../../webhooks/channels/channels";
import { successTrue } from "../../schemas";
import { endpointIdInput } from "../webhooks/schemas";
import { channelResponse, channelSchema } from "./schemas";
import { channelSurface } from "./surface";

export const get = partnerProcedure
  .meta({
    openapi: { method: "GET", path: `${channelSurface.basePath}/{id}`, tags: channelSurface.tags, summary: "Get a channel" },
    errors: { failure: "Failed to retrieve channel" },
    responses: { 400: "Invalid webhook ID", 404: "Webhook not found" },
  })
  .input(z.object({ id: endpointIdInput }))
  .output(z.object({ success: successTrue, channel: channelSchema }))
  .query(async ({ ctx, input }) => ({
    success: true as const,
    channel: channelResponse(await getChannel(ctx.db, ctx.caller.partnerId, input.id)),
  }));
