import { z } from "zod";
import { getPartnerAnalytics } from "../../../customers/analytics";
import { emptyInput, successTrue } from "../../schemas";
import { partnerOrDistributorProcedure } from "../../trpc";

const count = (description: string) => z.number().int().min(0).meta({ description });

export const getAnalytics = partnerOrDistributorProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/api/v1/integrations/partner/analytics",
      tags: ["Partner: analytics"],
      summary: "Account analytics",
    },
    errors: { failure: "Failed to retrieve analytics" },
  })
  .input(emptyInput)
  .output(
    z.object({
      success: successTrue,
      data: z.object({
        totalCustomers: count("Every customer, whatever its status"),
        activeCustomers: count("Customers in active status"),
        newCustomerLast30Days: count("Customers onboarded in the last 30 days"),
        totalMonitoredDomains: count("Monitored domains of active customers"),
        totalMonitoredEmails: count("Monitored e-mail addresses of active customers"),
        totalBreachesDetected: count("Breach instances found for all customers, resolved ones included"),
      }),
    }),
  )
  .query(async ({ ctx }) => ({ success: true as const, data: await getPartnerAnalytics(ctx.db, ctx.caller.partnerId) }));
