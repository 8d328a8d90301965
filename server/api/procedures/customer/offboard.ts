import { z } from "zod";
import { transitionCustomer } from "../../../customers/lifecycle";
import { successTrue } from "../../schemas";
import { partnerOrDistributorProcedure } from "../../trpc";
import { customerIdBodyInput, successMessage } from "./fields";

const OFFBOARDED = "Customer offboarded successfully";

export const offboard = partnerOrDistributorProcedure
  .meta({
    audit: { action: "customer.offboard", target: { type: "customer", key: "customerId" } },
    openapi: {
      method: "POST",
      path: "/api/v1/integrations/customer/offboard",
      tags: ["Partner: customers"],
      summary: "Offboard (deactivate) a customer",
      description:
        "Moves an `active`, `prospect` or `dormant` customer to `inactive` and emits customer.deleted. Monitoring stops; " +
        "assets, plan, billing and breach records are kept, and reactivate makes the customer active again.",
    },
    errors: { failure: "Failed to offboard customer" },
    responses: { 404: "Customer not found or does not belong to partner", 409: "Customer is already inactive" },
  })
  .input(customerIdBodyInput)
  .output(z.object({ success: successTrue, message: successMessage(OFFBOARDED) }))
  .mutation(async ({ ctx, input }) => {
    await transitionCustomer(ctx.db, ctx.caller.partnerId, input.customerId, "offboard");
    return { success: true as const, message: OFFBOARDED };
  });
