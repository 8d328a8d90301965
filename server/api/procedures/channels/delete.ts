import { z } from "zod";
import { partnerProcedure } from "../../trpc";
import { deleteChannel } from "../../../webhooks/channels/channels";
import { successTrue } from "../../schemas";
import { endpointIdInput } from "../webhooks/schemas";
import { channelSurface } from "./surface";

export const remove = partnerProcedure
  .meta({
    audit: { action: "channel.delete", target: { type: "channel", key: "id" } },
    openapi: {
      method: "DELETE",
      path: `${channelSurface.basePath}/{id}`,
      tags: channelSurface.tags,
      summary: "Remove a channel",
      description: "Removes the channel, its delivery log and the record of what it was told.",
    },
    errors: { failure: "Failed to delete channel" },
    responses: { 400: "Invalid webhook ID", 404: "Webhook not found" },
  })
  .input(z.object({ id: endpointIdInput }))
  .output(z.object({ success: successTrue }))
  .mutation(async ({ ctx, input }) => {
    await deleteChannel(ctx.db, ctx.caller.partnerId, input.id);
    return { success: true as const };
  });
