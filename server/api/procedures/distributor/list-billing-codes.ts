import { z } from "zod";
import { listBillingCodes as listBillingCodesService } from "../../../distributors/billing-codes";
import { queryInteger, successTrue } from "../../schemas";
import { distributorProcedure } from "../../trpc";
import { billingCodeSchema } from "./billing-code-schema";

const MAX_PAGE = 10_000_000;

export const listBillingCodes = distributorProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/api/v1/distributors/billing-codes",
      tags: ["Distributor: billing codes"],
      summary: "List billing codes",
      description: "The distributor's billing codes in id order.",
    },
    errors: { failure: "Internal server error", validation: "field" },
    responses: { 400: "page: Too small: expected number to be >=1" },
  })
  .input(
    z.object({
      page: queryInteger(1).pipe(z.number().min(1).max(MAX_PAGE)).meta({ description: "Default 1" }),
      per_page: queryInteger(10).pipe(z.number().min(1).max(100)).meta({ description: "1 to 100, default 10" }),
    }),
  )
  .output(
    z.object({
      success: successTrue,
      data: z.array(billingCodeSchema),
      pagination: z.object({
        total_count: z.number().int(),
        has_next_page: z.boolean(),
        page: z.number().int(),
        per_page: z.number().int(),
      }),
    }),
  )
  .query(async ({ ctx, input }) => ({
    success: true as const,
    ...(await listBillingCodesService(ctx.db, ctx.caller.distributorId, { page: input.page, perPage: input.per_page })),
  }));
