import { z } from "zod";
import { CUSTOMER_NOT_FOUND } from "../../../findings/instances";
import { listCustomerStealerLogs } from "../../../findings/stealer-logs";
import { successTrue } from "../../schemas";
import { partnerProcedure } from "../../trpc";
import { customerListIdPath } from "./fields";

const stealerLogEntrySchema = z
  .object({
    email: z.string(),
    websiteDomains: z.array(z.string()),
    capturedAt: z.string().nullable().meta({ format: "date-time" }),
    breachId: z.string().meta({ format: "uuid" }),
  })
  .meta({ id: "StealerLogEntry" });

export const listStealerLogs = partnerProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/api/v1/integrations/customer/{customerId}/stealer-logs",
      tags: ["Partner: customers"],
      summary: "List a customer's stealer-log findings",
      description:
        "Addresses whose passwords info-stealing malware captured, with the websites captured for each; only addresses at a " +
        "domain verified for the customer. `breachId` is the breach instance. For prospects, `count` only and no entries.",
    },
    errors: { failure: "Failed to retrieve customer stealer logs", validation: "message" },
    responses: { 400: "Invalid route parameters: Customer ID must be a valid UUID", 404: CUSTOMER_NOT_FOUND },
  })
  .input(
    z.object({
      customerId: customerListIdPath,
    }),
  )
  .output(
    z.object({ success: successTrue, count: z.number().int(), entries: z.array(stealerLogEntrySchema) }).meta({ id: "StealerLogList" }),
  )
  .query(async ({ ctx, input }) => listCustomerStealerLogs(ctx.db, ctx.caller.partnerId, input.customerId));
