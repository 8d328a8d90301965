import { z } from "zod";
import { CUSTOMER_NOT_FOUND } from "../../../customers/ownership";
import { deleteMute, MUTE_NOT_FOUND } from "../../../customers/mutes";
import { successTrue } from "../../schemas";
import { partnerOrDistributorProcedure } from "../../trpc";
import { customerIdPath } from "../customer/fields";
import { MUTES_PATH, MUTES_TAGS } from "./fields";

export const remove = partnerOrDistributorProcedure
  .meta({
    audit: { action: "customer.unmute", target: { type: "customer", key: "customerId" } },
    openapi: {
      method: "DELETE",
      path: `${MUTES_PATH}/{muteId}`,
      tags: MUTES_TAGS,
      summary: "End a mute of a customer",
      description: "What is found from then on is told again; what was found while muted is not ([quiet by design](/docs/notifications)).",
    },
    errors: { failure: "Failed to delete mute" },
    responses: { 404: [CUSTOMER_NOT_FOUND, MUTE_NOT_FOUND] },
  })
  .input(z.object({ customerId: customerIdPath, muteId: z.string() }))
  .output(z.object({ success: successTrue }))
  .mutation(async ({ ctx, input }) => {
    await deleteMute(ctx.db, input.customerId, input.muteId, ctx.caller.partnerId);
    return { success: true as const };
  });
