import { z } from "zod";
import { CUSTOMER_NOT_FOUND } from "../../../customers/ownership";
import { DIRECTORY_NOT_CONNECTED, getDirectory } from "../../../directory/connections";
import { partnerOrDistributorProcedure } from "../../trpc";
import { customerIdPath } from "../customer/fields";
import { DIRECTORY_PATH, DIRECTORY_TAGS, directoryOutput } from "./fields";

export const get = partnerOrDistributorProcedure
  .meta({
    openapi: {
      method: "GET",
      path: DIRECTORY_PATH,
      tags: DIRECTORY_TAGS,
      summary: "A customer's directory connection: its state, last sync and counts",
      description: "Never the client secret ([directory sync](/docs/directory)).",
    },
    errors: { failure: "Failed to retrieve directory" },
    responses: { 404: [CUSTOMER_NOT_FOUND, DIRECTORY_NOT_CONNECTED] },
  })
  .input(z.object({ customerId: customerIdPath }))
  .output(directoryOutput)
  .query(async ({ ctx, input }) => ({
    success: true as const,
    directory: await getDirectory(ctx.db, ctx.caller.partnerId, input.customerId),
  }));
