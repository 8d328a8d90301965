import { z } from "zod";
import { CUSTOMER_NOT_FOUND } from "../../../customers/ownership";
import { listOwnedMutes } from "../../../customers/mutes";
import { partnerOrDistributorProcedure } from "../../trpc";
import { customerIdPath } from "../customer/fields";
import { MUTES_PATH, MUTES_TAGS, muteListOutput } from "./fields";

export const list = partnerOrDistributorProcedure
  .meta({
    openapi: {
      method: "GET",
      path: MUTES_PATH,
      tags: MUTES_TAGS,
      summary: "A customer's mutes in force",
      description:
        "Set by the partner, its staff or the customer in the portal; expired ones are left out ([quiet by design](/docs/notifications)).",
    },
    errors: { failure: "Failed to list mutes" },
    responses: { 404: CUSTOMER_NOT_FOUND },
  })
  .input(z.object({ customerId: customerIdPath }))
  .output(muteListOutput)
  .query(async ({ ctx, input }) => ({
    success: true as const,
    mutes: await listOwnedMutes(ctx.db, ctx.caller.partnerId, input.customerId),
  }));
