import type { DistributorContext } from "../../audit";
import { auditedBrand, getBrandSettings, putBrandSettings } from "../../../brand/settings";
import { distributorProcedure } from "../../trpc";
import { BRAND_ERRORS, distributorBrandInput, distributorBrandOutput } from "./fields";

export const putDistributorBrand = distributorProcedure
  .meta({
    audit: {
      action: "distributor.brand.update",
      target: { type: "distributor", key: "$owner" },
      before: async (ctx: DistributorContext) => auditedBrand(await getBrandSettings(ctx.db, { distributorId: ctx.caller.distributorId })),
      after: auditedBrand,
    },
    openapi: {
      method: "PUT",
      path: "/api/v1/distributors/brand",
      tags: ["Distributor: brand"],
      summary: "Set the distributor's default brand",
      description:
        "Replaces the default brand of the distributor's partners ([your brand](/docs/brand)): a partner's own brand wins field by field. " +
        "No portal host: a portal host belongs to one partner. An empty body removes it.",
    },
    errors: { failure: "Failed to update brand", invalidJson: "Request body must be valid JSON" },
    responses: { 400: BRAND_ERRORS[400], 413: BRAND_ERRORS[413] },
  })
  .input(distributorBrandInput)
  .output(distributorBrandOutput)
  .mutation(async ({ ctx, input }) => ({
    success: true as const,
    data: await putBrandSettings(ctx.db, { distributorId: ctx.caller.distributorId }, input),
  }));
