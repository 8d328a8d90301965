import { transitionCustomer } from "../../../customers/lifecycle";
import { partnerProcedure } from "../../trpc";
import { customerIdBodyInput, statusChangeOutput } from "./fields";

const REACTIVATED = "Customer reactivated successfully";

export const reactivate = partnerProcedure
  .meta({
    audit: { action: "customer.reactivate", target: { type: "customer", key: "customerId" } },
    openapi: {
      method: "POST",
      path: "/api/v1/integrations/customer/reactivate",
      tags: ["Partner: customers"],
      summary: "Reactivate an offboarded customer",
      description: "Moves an `inactive` customer to `active`: daily scans resume, starting with a scan now.",
    },
    errors: { failure: "Failed to reactivate customer" },
    responses: {
      404: "Customer not found",
      409: "Customer is already active",
      422: "Customer cannot be reactivated: customer is not inactive",
    },
  })
  .input(customerIdBodyInput)
  .output(statusChangeOutput("active", REACTIVATED))
  .mutation(async ({ ctx, input }) => {
    const { customerId } = await transitionCustomer(ctx.db, ctx.caller.partnerId, input.customerId, "reactivate");
    return { success: true as const, message: REACTIVATED, customerId, status: "active" as const };
  });
