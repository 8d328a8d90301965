import { z } from "zod";
import { deletePsaConnection, PSA_NOT_CONNECTED } from "../../../psa/connections";
import { successTrue } from "../../schemas";
import { partnerOrDistributorProcedure } from "../../trpc";
import { PSA_PATH, PSA_TAGS } from "./fields";

export const disconnect = partnerOrDistributorProcedure
  .meta({
    audit: { action: "psa.disconnect", target: { type: "psa" } },
    openapi: {
      method: "DELETE",
      path: PSA_PATH,
      tags: PSA_TAGS,
      summary: "Disconnect the partner's PSA",
      description:
        "Nothing more is sent; the stored credentials and the record of tickets opened are deleted ([PSA tickets](/docs/integrations)).",
    },
    errors: { failure: "Failed to disconnect PSA" },
    responses: { 404: PSA_NOT_CONNECTED },
  })
  .input(z.object({}))
  .output(z.object({ success: successTrue }))
  .mutation(async ({ ctx }) => {
    await deletePsaConnection(ctx.db, ctx.caller.partnerId);
    return { success: true as const };
  });
