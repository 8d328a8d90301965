import { z } from "zod";
import { BREACH_INSTANCE_NOT_FOUND, setBreachResolved } from "../../../findings/instances";
import { successTrue, uuidInput } from "../../schemas";
import { partnerProcedure } from "../../trpc";

export const status = partnerProcedure
  .meta({
    audit: { action: "breach.status", target: { type: "breach-instance", key: "breachId" } },
    openapi: {
      method: "POST",
      path: "/api/v1/integrations/breach/status",
      tags: ["Partner: breaches"],
      summary: "Mark a customer's breach resolved or unresolved",
      description:
        "`breachId` is the breach instance's id (the `id` of the customer breach list, the `uuid` of breach webhooks). " +
        "`customerId` is optional; when given it must be the instance's customer. A change of the flag emits " +
        "customer.breach.resolved or customer.breach.unresolved and updates the threat score; setting the same value again changes nothing.",
    },
    errors: { failure: "Failed to update breach status", invalidJson: "Request body must be valid JSON" },
    responses: { 404: BREACH_INSTANCE_NOT_FOUND },
  })
  .input(
    z.object({
      breachId: uuidInput("Breach ID must be a valid UUID"),
      customerId: uuidInput("Customer ID must be a valid UUID").optional(),
      resolved: z.boolean({ error: "resolved must be a boolean" }),
    }),
  )
  .output(z.object({ success: successTrue, resolved: z.boolean() }))
  .mutation(async ({ ctx, input }) => {
    const { breachId: breachInstanceId, customerId, resolved } = input;
    return {
      success: true as const,
      ...(await setBreachResolved(ctx.db, ctx.caller.partnerId, { breachInstanceId, customerId, resolved })),
    };
  });
