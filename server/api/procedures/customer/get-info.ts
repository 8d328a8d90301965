import { z } from "zod";
import { CUSTOMER_STATUSES } from "../../../customers/list";
import { getCustomerInfo } from "../../../customers/info";
import { successTrue } from "../../schemas";
import { partnerProcedure } from "../../trpc";
import { customerIdPath } from "./fields";

export const getInfo = partnerProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/api/v1/integrations/customer/{customerId}/info",
      tags: ["Partner: customers"],
      summary: "Get a customer's details",
      description:
        "`scanned_status` is true once the customer's first scan has finished. `currencyCode` is null for a prospect onboarded " +
        "without one, `shouldReceiveBreachAlerts` null when it was never set (alerts then follow the status).",
    },
    errors: { failure: "Failed to retrieve customer info" },
    responses: { 404: "Customer not found or does not belong to partner" },
  })
  .input(z.object({ customerId: customerIdPath }))
  .output(
    z.object({
      success: successTrue,
      companyName: z.string(),
      contactEmail: z.string(),
      price: z.number(),
      planType: z.string().meta({ example: "basic" }),
      localeCode: z.string().meta({ example: "en-GB" }),
      status: z.enum(CUSTOMER_STATUSES),
      scanned_status: z.boolean(),
      customerReference: z.string().meta({ example: "ACME-001" }),
      currencyCode: z.string().nullable().meta({ example: "USD" }),
      planId: z.string().meta({ format: "uuid" }),
      alertRecipients: z.array(z.string()).meta({ example: ["alerts@acme.example"] }),
      sendMonthlyReport: z.boolean(),
      shouldReceiveBreachAlerts: z.boolean().nullable(),
      alertDigest: z.enum(["off", "daily", "weekly"]).meta({ description: "off: each breach alert at once; daily or weekly: one summary" }),
    }),
  )
  .query(async ({ ctx, input }) => {
    const { scannedStatus, ...info } = await getCustomerInfo(ctx.db, ctx.caller.partnerId, input.customerId);
    return { success: true as const, ...info, scanned_status: scannedStatus };
  });
