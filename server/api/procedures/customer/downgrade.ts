import { transitionCustomer } from "../../../customers/lifecycle";
import { partnerOrDistributorProcedure } from "../../trpc";
import { CUSTOMER_ID_REQUIRED, customerIdBodyInput, statusChangeOutput } from "./fields";

const DOWNGRADED = "Customer downgraded successfully";

export const downgrade = partnerOrDistributorProcedure
  .meta({
    audit: { action: "customer.downgrade", target: { type: "customer", key: "customerId" } },
    openapi: {
      method: "POST",
      path: "/api/v1/integrations/customer/downgrade",
      tags: ["Partner: customers"],
      summary: "Downgrade an active customer to prospect",
      description:
        "Moves an `active` customer to `prospect`: breach data is redacted again and daily scans stop. Plan, price, " +
        "billing, assets and breach records are kept.",
    },
    errors: { failure: "Failed to downgrade customer", invalidJson: CUSTOMER_ID_REQUIRED },
    responses: {
      404: "Customer not found or does not belong to partner",
      409: "Customer is already a prospect",
      422: "Customer cannot be downgraded: customer is not active",
    },
  })
  .input(customerIdBodyInput)
  .output(statusChangeOutput("prospect", DOWNGRADED))
  .mutation(async ({ ctx, input }) => {
    const { customerId } = await transitionCustomer(ctx.db, ctx.caller.partnerId, input.customerId, "downgrade");
    return { success: true as const, message: DOWNGRADED, customerId, status: "prospect" as const };
  });
