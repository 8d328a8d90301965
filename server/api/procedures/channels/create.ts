import { z } from "zod";
import { partnerProcedure } from "../../trpc";
import { createChannel } from "../../../webhooks/channels/channels";
import { successTrue } from "../../schemas";
import { channelCreateInput, channelResponse, channelSchema } from "./schemas";
import { channelSurface } from "./surface";

export const create = partnerProcedure
  .meta({
    audit: { action: "channel.create", target: { type: "channel" } },
    openapi: {
      method: "POST",
      path: channelSurface.basePath,
      tags: channelSurface.tags,
      summary: "Add a chat or SIEM channel",
      description:
        'A Slack incoming webhook or Teams Workflows webhook (`type` "slack" or "teams" with `url`), or a syslog receiver (`type` ' +
        '"syslog" with `host`, `port` and optionally `tls`). The channel gets the events of `eventTypes` at or above `minSeverity`, ' +
        "each finding once. The URL must be https and the host public (unless the service runs with WEBHOOK_ALLOW_PRIVATE_URLS=true). " +
        "See [Chat and SIEM channels](/docs/integrations#chat-and-siem-channels).",
    },
    errors: { failure: "Failed to create channel" },
  })
  .input(channelCreateInput)
  .output(z.object({ success: successTrue, channel: channelSchema }))
  .mutation(async ({ ctx, input }) => ({
    success: true as const,
    channel: channelResponse(await createChannel(ctx.db, ctx.caller.partnerId, input)),
  }));
