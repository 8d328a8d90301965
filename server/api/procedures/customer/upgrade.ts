import { transitionCustomer } from "../../../customers/lifecycle";
import { partnerOrDistributorProcedure } from "../../trpc";
import { CUSTOMER_ID_REQUIRED, customerIdBodyInput, statusChangeOutput } from "./fields";

const UPGRADED = "Customer upgraded successfully";

export const upgrade = partnerOrDistributorProcedure
  .meta({
    audit: { action: "customer.upgrade", target: { type: "customer", key: "customerId" } },
    openapi: {
      method: "POST",
      path: "/api/v1/integrations/customer/upgrade",
      tags: ["Partner: customers"],
      summary: "Upgrade a prospect to active",
      description:
        "Moves a `prospect` to `active`: full breach detail and daily scans, starting with a scan now. Plan, price, " +
        "billing and assets are kept.",
    },
    errors: { failure: "Failed to upgrade customer", invalidJson: CUSTOMER_ID_REQUIRED },
    responses: {
      404: "Customer not found or does not belong to partner",
      409: "Customer is already active",
      422: "Customer cannot be upgraded: customer is not a prospect",
    },
  })
  .input(customerIdBodyInput)
  .output(statusChangeOutput("active", UPGRADED))
  .mutation(async ({ ctx, input }) => {
    const { customerId } = await transitionCustomer(ctx.db, ctx.caller.partnerId, input.customerId, "upgrade");
    return { success: true as const, message: UPGRADED, customerId, status: "active" as const };
  });
