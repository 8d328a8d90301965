import { z } from "zod";
import { ENROL_TYPES, ONBOARD_STATUSES, onboardCustomer } from "../../../customers/onboard";
import { LOCALE_CODES } from "../../../i18n/locales";
import { emailField, isoDateTime, requiredText, successTrue } from "../../schemas";
import { partnerProcedure } from "../../trpc";
import {
  alertRecipientsField,
  currencyCodeField,
  customerReferenceField,
  localeCodeField,
  successMessage,
  planIdField,
  planIdOf,
  planTypeField,
  planUuidField,
  priceField,
  valueList,
} from "./fields";

const ONBOARDED = "Customer onboarded successfully";

export const onboard = partnerProcedure
  .meta({
    audit: { action: "customer.onboard", target: { type: "customer" } },
    openapi: {
      method: "POST",
      path: "/api/v1/integrations/customer/onboard",
      tags: ["Partner: customers"],
      summary: "Onboard a customer",
      description: [
        "Creates a customer, `active` (full monitoring) or `prospect` (one-time exposure check), with its monitored",
        "domains and e-mail addresses (normalized: trimmed, lower-case, deduplicated; at least one in all). The contact",
        "e-mail is not a monitored asset; it becomes the customer's portal account. Emits customer.created and",
        "customer.asset.added (the initial assets) and starts the initial scan. `platformAccess` is accepted and ignored.",
      ].join(" "),
    },
    ignoredFields: ["platformAccess"],
    errors: { failure: "Failed to onboard customer" },
    responses: { 409: 'A customer with reference "ACME-001" already exists' },
  })
  .input(
    z.object({
      companyName: requiredText("Company name", 200).meta({ example: "Acme Ltd" }),
      contactEmail: emailField("Contact email").meta({ example: "it@acme.example" }),
      customerReference: customerReferenceField,
      assetsDomains: valueList("Domains to monitor", 10_000).optional(),
      assetsEmails: valueList("E-mail addresses to monitor", 10_000).optional(),
      alertRecipients: alertRecipientsField.optional(),
      price: priceField.optional().meta({ description: "Required unless status is prospect (a prospect's default is 0)" }),
      billedFromDate: isoDateTime("Billed-from date must be an ISO 8601 date-time")
        .transform((value) => new Date(value))
        .optional(),
      currencyCode: currencyCodeField.optional().meta({ description: "Required unless status is prospect" }),
      planId: planIdField.optional(),
      planUuid: planUuidField.optional(),
      planType: planTypeField.optional(),
      enrolType: z.enum(ENROL_TYPES, { error: 'Enrol type must be "opt-in" or "opt-out"' }).optional(),
      sendMonthlyReport: z.boolean().optional(),
      localeCode: localeCodeField.optional().meta({ description: `One of ${LOCALE_CODES.join(", ")} (any case); default en-GB` }),
      shouldReceiveBreachAlerts: z.boolean().optional(),
      status: z
        .enum(ONBOARD_STATUSES, { error: 'Status must be "active" or "prospect"' })
        .optional()
        .meta({ description: "Default active" }),
    }),
  )
  .output(
    z.object({
      success: successTrue,
      message: successMessage(ONBOARDED),
      customerId: z.string().meta({ format: "uuid" }),
    }),
  )
  .mutation(async ({ ctx, input }) => {
    const { planUuid: _planUuid, ...fields } = input;
    const { customerId } = await onboardCustomer(ctx.db, ctx.caller.partnerId, { ...fields, planId: planIdOf(input) });
    return { success: true as const, message: ONBOARDED, customerId };
  });
