import type { PartnerContext } from "../../audit";
import { z } from "zod";
import { ASSETS_UPDATE_EMPTY, updateCustomerAssets, getCustomerAssets } from "../../../customers/assets";
import { uuidInput } from "../../schemas";
import { partnerProcedure } from "../../trpc";
import { assetListsOutput, valueList } from "./fields";

export const updateAssets = partnerProcedure
  .meta({
    audit: {
      action: "customer.update-assets",
      target: { type: "customer", key: "customerId" },
      before: (ctx: PartnerContext, input) => getCustomerAssets(ctx.db, ctx.caller.partnerId, String(input.customerId)),
      reload: true,
    },
    openapi: {
      method: "PATCH",
      path: "/api/v1/integrations/customer/{customerId}/assets",
      tags: ["Partner: customers"],
      summary: "Replace a customer's monitored domains and/or e-mail addresses",
      description: [
        "Each list given is the complete new set (`[]` removes all of that kind); a list left out stays as it is.",
        "Values are normalized (trimmed, lower-case, deduplicated). Emits one customer.asset.added event listing every",
        "added asset and one customer.asset.removed event listing every removed one; an active customer is scanned",
        "for what was added. The addresses a connected directory brings stay ([directory sync](/docs/directory)).",
        "Answers the customer's complete lists.",
      ].join(" "),
    },
    errors: { failure: "Failed to update customer assets", invalidJson: "Request body must be valid JSON" },
    responses: {
      400: ASSETS_UPDATE_EMPTY,
      404: "Customer not found or does not belong to partner",
    },
  })
  .input(
    z.object({
      customerId: uuidInput("Customer ID is required"),
      domains: valueList("The complete new list of monitored domains", 10_000).optional(),
      emails: valueList("The complete new list of monitored e-mail addresses", 10_000).optional(),
    }),
  )
  .output(assetListsOutput)
  .mutation(async ({ ctx, input }) => {
    const { customerId, ...update } = input;
    return { success: true as const, ...(await updateCustomerAssets(ctx.db, ctx.caller.partnerId, customerId, update)) };
  });
