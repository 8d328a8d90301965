import { z } from "zod";
import { CUSTOMER_NOT_FOUND, listCustomerBreaches } from "../../../findings/instances";
import { successTrue } from "../../schemas";
import { partnerProcedure } from "../../trpc";
import { customerListIdPath } from "./fields";
import { LOCALE_CODES } from "../../../i18n/locales";
import { customerBreachEntrySchema, LOCALE_MESSAGE, redactedBreachEntrySchema } from "../breach/schemas";

const envelope = { success: successTrue, breachStatus: z.boolean(), count: z.number().int() };

export const listBreaches = partnerProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/api/v1/integrations/customer/{customerId}/breaches",
      tags: ["Partner: customers"],
      summary: "List a customer's breaches",
      description:
        "Full entries (texts in `localeCode`, default the customer's own locale) for customers that are not prospects. For prospects, the redacted " +
        "envelope: each breach carries only its instance `id`, the exposed `emails` and `resolved`.",
    },
    errors: { failure: "Failed to retrieve customer breaches", validation: "message" },
    responses: { 400: "Invalid route parameters: Customer ID must be a valid UUID", 404: CUSTOMER_NOT_FOUND },
  })
  .input(
    z.object({
      customerId: customerListIdPath,
      localeCode: z
        .enum(LOCALE_CODES, { error: `Invalid query parameters: ${LOCALE_MESSAGE}` })
        .optional()
        .meta({ description: "Locale of the texts (default: the customer's localeCode)", example: "en-GB" }),
    }),
  )
  .output(
    z.union([
      z.object({ ...envelope, breaches: z.array(customerBreachEntrySchema) }).meta({ id: "CustomerBreachList" }),
      z.object({ ...envelope, breaches: z.array(redactedBreachEntrySchema) }).meta({ id: "RedactedCustomerBreachList" }),
    ]),
  )
  .query(async ({ ctx, input }) => listCustomerBreaches(ctx.db, ctx.caller.partnerId, input.customerId, input.localeCode));
