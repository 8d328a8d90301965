import { z } from "zod";
import { CUSTOMER_NOT_FOUND } from "../../../customers/ownership";
import { DIRECTORY_NOT_CONNECTED, requestDirectorySync } from "../../../directory/connections";
import { successTrue } from "../../schemas";
import { partnerOrDistributorProcedure } from "../../trpc";
import { customerIdPath } from "../customer/fields";
import { DIRECTORY_PATH, DIRECTORY_TAGS } from "./fields";

export const sync = partnerOrDistributorProcedure
  .meta({
    audit: { action: "directory.sync", target: { type: "customer", key: "customerId" } },
    openapi: {
      method: "POST",
      path: `${DIRECTORY_PATH}/sync`,
      tags: DIRECTORY_TAGS,
      summary: "Sync a customer's directory now",
      description:
        "Queues a sync at once (a sync already queued is that one); GET .../directory shows its outcome ([directory sync](/docs/directory)).",
    },
    errors: { failure: "Failed to start directory sync" },
    responses: { 404: [CUSTOMER_NOT_FOUND, DIRECTORY_NOT_CONNECTED] },
    successStatus: 202,
  })
  .input(z.object({ customerId: customerIdPath }))
  .output(z.object({ success: successTrue }))
  .mutation(async ({ ctx, input }) => {
    await requestDirectorySync(ctx.db, ctx.caller.partnerId, input.customerId);
    return { success: true as const };
  });
