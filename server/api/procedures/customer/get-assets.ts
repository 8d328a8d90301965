import { z } from "zod";
import { getCustomerAssets } from "../../../customers/assets";
import { uuidInput } from "../../schemas";
import { partnerProcedure } from "../../trpc";
import { assetListsOutput } from "./fields";

export const getAssets = partnerProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/api/v1/integrations/customer/{customerId}/assets",
      tags: ["Partner: customers"],
      summary: "Get a customer's monitored domains and e-mail addresses",
      description: "Both lists are sorted; an empty list is []. The contact e-mail is not a monitored asset.",
    },
    errors: { failure: "Failed to retrieve customer assets" },
    responses: { 400: "Validation failed: customerId: Customer ID is required", 404: "Customer not found or does not belong to partner" },
  })
  .input(z.object({ customerId: uuidInput("Customer ID is required") }))
  .output(assetListsOutput)
  .query(async ({ ctx, input }) => ({
    success: true as const,
    ...(await getCustomerAssets(ctx.db, ctx.caller.partnerId, input.customerId)),
  }));
