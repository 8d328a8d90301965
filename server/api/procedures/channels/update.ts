import { z } from "zod";
import { partnerProcedure } from "../../trpc";
import { updateChannel } from "../../../webhooks/channels/channels";
import { successTrue } from "../../schemas";
import { channelResponse, channelSchema, channelUpdateInput } from "./schemas";
import { channelSurface } from "./surface";

export const update = partnerProcedure
  .meta({
    audit: { action: "channel.update", target: { type: "channel", key: "id" } },
    openapi: {
      method: "PATCH",
      path: `${channelSurface.basePath}/{id}`,
      tags: channelSurface.tags,
      summary: "Change a channel",
      description:
        "Changes the fields given (the type stays). A new url or host is checked as on create. Enabling a disabled channel clears its failure run.",
    },
    errors: { failure: "Failed to update channel" },
    responses: { 400: "Invalid webhook ID", 404: "Webhook not found" },
  })
  .input(channelUpdateInput)
  .output(z.object({ success: successTrue, channel: channelSchema }))
  .mutation(async ({ ctx, input: { id, ...changes } }) => ({
    success: true as const,
    channel: channelResponse(await updateChannel(ctx.db, ctx.caller.partnerId, id, changes)),
  }));
