import { getBrandSettings } from "../../../brand/settings";
import { emptyInput } from "../../schemas";
import { distributorProcedure } from "../../trpc";
import { distributorBrandOutput } from "./fields";

export const getDistributorBrand = distributorProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/api/v1/distributors/brand",
      tags: ["Distributor: brand"],
      summary: "Get the distributor's default brand",
      description: "The brand the distributor's partners' customers see where the partner set none of its own (field by field).",
    },
    errors: { failure: "Failed to retrieve brand" },
  })
  .input(emptyInput)
  .output(distributorBrandOutput)
  .query(async ({ ctx }) => ({
    success: true as const,
    data: await getBrandSettings(ctx.db, { distributorId: ctx.caller.distributorId }),
  }));
