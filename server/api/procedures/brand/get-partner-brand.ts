import { getBrandSettings } from "../../../brand/settings";
import { emptyInput } from "../../schemas";
import { partnerProcedure } from "../../trpc";
import { partnerBrandOutput } from "./fields";

export const getPartnerBrand = partnerProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/api/v1/integrations/partner/brand",
      tags: ["Partner: brand"],
      summary: "Get the partner's brand",
      description: "What the partner set; a field that is null falls back to the distributor's default, then the service's own look.",
    },
    errors: { failure: "Failed to retrieve brand" },
  })
  .input(emptyInput)
  .output(partnerBrandOutput)
  .query(async ({ ctx }) => ({
    success: true as const,
    data: { portalHost: null, ...(await getBrandSettings(ctx.db, { partnerId: ctx.caller.partnerId })) },
  }));
