import { z } from "zod";
import { CUSTOMER_NOT_FOUND } from "../../../customers/ownership";
import { DIRECTORY_NOT_CONNECTED, disconnectDirectory } from "../../../directory/connections";
import { successTrue } from "../../schemas";
import { partnerOrDistributorProcedure } from "../../trpc";
import { customerIdPath } from "../customer/fields";
import { DIRECTORY_PATH, DIRECTORY_TAGS } from "./fields";

export const disconnect = partnerOrDistributorProcedure
  .meta({
    audit: { action: "directory.disconnect", target: { type: "customer", key: "customerId" } },
    openapi: {
      method: "DELETE",
      path: DIRECTORY_PATH,
      tags: DIRECTORY_TAGS,
      summary: "Disconnect a customer's directory",
      description:
        "The sync stops and the stored credentials are deleted. The addresses it brought stay monitored as the partner's own " +
        "([directory sync](/docs/directory)).",
    },
    errors: { failure: "Failed to disconnect directory" },
    responses: { 404: [CUSTOMER_NOT_FOUND, DIRECTORY_NOT_CONNECTED] },
  })
  .input(z.object({ customerId: customerIdPath }))
  .output(z.object({ success: successTrue }))
  .mutation(async ({ ctx, input }) => {
    await disconnectDirectory(ctx.db, ctx.caller.partnerId, input.customerId);
    return { success: true as const };
  });
