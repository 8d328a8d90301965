import { z } from "zod";
import { partnerProcedure } from "../../trpc";
import { listChannels } from "../../../webhooks/channels/channels";
import { successTrue } from "../../schemas";
import { channelResponse, channelSchema } from "./schemas";
import { channelSurface } from "./surface";

export const list = partnerProcedure
  .meta({
    openapi: { method: "GET", path: channelSurface.basePath, tags: channelSurface.tags, summary: "List chat and SIEM channels" },
    errors: { failure: "Failed to list channels" },
  })
  .input(z.object({}))
  .output(z.object({ success: successTrue, channels: z.array(channelSchema) }))
  .query(async ({ ctx }) => ({
    success: true as const,
    channels: (await listChannels(ctx.db, ctx.caller.partnerId)).map(channelResponse),
  }));
