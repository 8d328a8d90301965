import type { PartnerContext } from "../../audit";
import { auditedBrand, getBrandSettings, putBrandSettings } from "../../../brand/settings";
import { partnerProcedure } from "../../trpc";
import { BRAND_ERRORS, partnerBrandInput, partnerBrandOutput } from "./fields";

export const putPartnerBrand = partnerProcedure
  .meta({
    audit: {
      action: "partner.brand.update",
      target: { type: "partner", key: "$owner" },
      before: async (ctx: PartnerContext) => auditedBrand(await getBrandSettings(ctx.db, { partnerId: ctx.caller.partnerId })),
      after: auditedBrand,
    },
    openapi: {
      method: "PUT",
      path: "/api/v1/integrations/partner/brand",
      tags: ["Partner: brand"],
      summary: "Set the partner's brand",
      description:
        "Replaces the brand the partner's customers see in the portal, e-mails and PDFs ([your brand](/docs/brand)). A field absent or null is " +
        "not set and falls back to the distributor's default; an empty body removes the brand.",
    },
    errors: { failure: "Failed to update brand", invalidJson: "Request body must be valid JSON" },
    responses: BRAND_ERRORS,
  })
  .input(partnerBrandInput)
  .output(partnerBrandOutput)
  .mutation(async ({ ctx, input }) => ({
    success: true as const,
    data: { portalHost: null, ...(await putBrandSettings(ctx.db, { partnerId: ctx.caller.partnerId }, input)) },
  }));
