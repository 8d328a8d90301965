import type { PartnerContext } from "../../audit";
import { z } from "zod";
import { updateCustomerInfo, getCustomerInfo } from "../../../customers/info";
import { successTrue } from "../../schemas";
import { partnerProcedure } from "../../trpc";
import { emailField, requiredText } from "../../schemas";
import {
  alertRecipientsField,
  currencyCodeField,
  customerIdPath,
  customerReferenceField,
  localeCodeField,
  successMessage,
  planIdField,
  planIdOf,
  planTypeField,
  planUuidField,
  priceField,
} from "./fields";

const UPDATED = "Customer info updated successfully";

export const updateInfo = partnerProcedure
  .meta({
    audit: {
      action: "customer.update-info",
      target: { type: "customer", key: "customerId" },
      before: (ctx: PartnerContext, input) => getCustomerInfo(ctx.db, ctx.caller.partnerId, String(input.customerId)),
      reload: true,
    },
    openapi: {
      method: "PATCH",
      path: "/api/v1/integrations/customer/{customerId}/info",
      tags: ["Partner: customers"],
      summary: "Update a customer's details",
      description:
        "Changes any of companyName, contactEmail (also the portal account's address), customerReference, price, currencyCode, " +
        "the plan (`planId` wins over `planType`), localeCode, alertRecipients, sendMonthlyReport, shouldReceiveBreachAlerts and alertDigest, " +
        "each validated as at onboarding. Monitored assets are changed with PATCH .../assets. `platformAccess` is ignored.",
    },
    ignoredFields: ["platformAccess"],
    errors: { failure: "Failed to update customer info", invalidJson: "Request body must be valid JSON" },
    responses: {
      404: "Customer not found or does not belong to partner",
      409: 'A customer with reference "ACME-001" already exists',
    },
  })
  .input(
    z.object({
      customerId: customerIdPath,
      companyName: requiredText("Company name", 200).optional(),
      contactEmail: emailField("Contact email").optional(),
      customerReference: customerReferenceField.optional(),
      price: priceField.optional(),
      currencyCode: currencyCodeField.optional().meta({ description: "E.g. for a prospect onboarded without one" }),
      planType: planTypeField.optional(),
      planId: planIdField.optional(),
      planUuid: planUuidField.optional(),
      localeCode: localeCodeField.optional(),
      alertRecipients: alertRecipientsField.optional(),
      sendMonthlyReport: z.boolean().optional(),
      shouldReceiveBreachAlerts: z.boolean().optional(),
      alertDigest: z
        .enum(["off", "daily", "weekly"], { error: 'alertDigest must be "off", "daily" or "weekly"' })
        .optional()
        .meta({ description: "off: each breach alert at once; daily (07:00 UTC) or weekly (Mondays): one summary" }),
    }),
  )
  .output(z.object({ success: successTrue, message: successMessage(UPDATED) }))
  .mutation(async ({ ctx, input }) => {
    const { customerId, planUuid: _planUuid, ...update } = input;
    await updateCustomerInfo(ctx.db, ctx.caller.partnerId, customerId, { ...update, planId: planIdOf(input) });
    return { success: true as const, message: UPDATED };
  });
