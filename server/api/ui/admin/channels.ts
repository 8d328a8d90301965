import { z } from "zod";
import { requireOwnPartner } from "../../../distributors/partners";
import { createChannel, deleteChannel, listChannels } from "../../../webhooks/channels/channels";
import { sendChannelTest } from "../../../webhooks/channels/test-send";
import { channelCreateInput, channelResponse } from "../../procedures/channels/schemas";
import { partnerIdPath } from "../../procedures/distributor/partner-fields";
import { deliveryResponse } from "../../procedures/webhooks/schemas";
import { router, staffProcedure } from "../../trpc";

/**
 * A partner's chat and SIEM channels on its admin page (docs/integrations.md): list, add, send a
 * test, remove, with the API's checks. Scoped to the staff member's distributor: another
 * distributor's partner answers 404 Partner not found.
 */
const partnerInput = z.object({ partnerId: partnerIdPath });
const channelInput = z.object({ partnerId: partnerIdPath, id: z.string() });

export const channelsRouter = router({
  list: staffProcedure
    .requires("viewer")
    .input(partnerInput)
    .query(async ({ ctx, input }) => {
      await requireOwnPartner(ctx.db, ctx.staff.distributorId, input.partnerId);
      return (await listChannels(ctx.db, input.partnerId)).map(channelResponse);
    }),

  create: staffProcedure
    .requires("admin")
    .meta({ audit: { action: "channel.create", target: { type: "channel" } } })
    .input(channelCreateInput.extend({ partnerId: partnerIdPath }))
    .mutation(async ({ ctx, input: { partnerId, ...channel } }) => {
      await requireOwnPartner(ctx.db, ctx.staff.distributorId, partnerId);
      return channelResponse(await createChannel(ctx.db, partnerId, channel));
    }),

  sendTest: staffProcedure
    .requires("admin")
    .meta({ audit: { action: "channel.test", target: { type: "channel", key: "id" } } })
    .input(channelInput)
    .mutation(async ({ ctx, input }) => {
      await requireOwnPartner(ctx.db, ctx.staff.distributorId, input.partnerId);
      return deliveryResponse(await sendChannelTest(ctx.db, input.partnerId, input.id, undefined));
    }),

  delete: staffProcedure
    .requires("admin")
    .meta({ audit: { action: "channel.delete", target: { type: "channel", key: "id" } } })
    .input(channelInput)
    .mutation(async ({ ctx, input }) => {
      await requireOwnPartner(ctx.db, ctx.staff.distributorId, input.partnerId);
      await deleteChannel(ctx.db, input.partnerId, input.id);
      return { deleted: true };
    }),
});
