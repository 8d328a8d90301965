import { z } from "zod";
import { badRequest } from "../../../errors";
import { UUID_PATTERN } from "../../../uuid";
import { LOCALE_CODES } from "../../../i18n/locales";
import { requiredError, requiredText, successTrue, uuidInput } from "../../schemas";
import { LOCALE_MESSAGE } from "../breach/schemas";

const MAX_PRICE = 9_999_999_999.99;
const CURRENCY_CODES = new Set(Intl.supportedValuesOf("currency"));

/** The customer id in a JSON body: missing and malformed ids get different messages. */
export const customerIdBody = z
  .string({ error: requiredError("Customer ID") })
  .trim()
  .min(1, { error: "Customer ID is required" })
  .regex(UUID_PATTERN, { error: "Customer ID must be a valid UUID" })
  .meta({ format: "uuid", example: "550e8400-e29b-41d4-a716-446655440000" });

export const customerIdPath = uuidInput("Customer ID must be a valid UUID");

/** The customer id of a finding list's path; a malformed one gets the message the specification gives lists. */
export const customerListIdPath = z
  .string({ error: "Customer ID is required" })
  .min(1, { error: "Customer ID is required" })
  .regex(UUID_PATTERN, { error: "Invalid route parameters: Customer ID must be a valid UUID" })
  .meta({ format: "uuid" });

/** A list of domains or e-mail addresses; each entry is checked and normalized by the service. */
export function valueList(description: string, maxItems: number) {
  return z
    .array(z.string(), { error: "Expected a list of strings" })
    .max(maxItems, { error: `At most ${maxItems} entries` })
    .meta({ description });
}

export const customerReferenceField = requiredText("Customer reference", 200).meta({
  description: "The partner's own reference; unique per partner",
  example: "ACME-001",
});

export const alertRecipientsField = valueList("Who receives breach alerts (default: the contact e-mail)", 100).min(1, {
  error: "At least one alert recipient is required",
});

export const priceField = z
  .number({ error: requiredError("Price") })
  .min(0, { error: "Price must be at least 0" })
  .max(MAX_PRICE, { error: `Price must be at most ${MAX_PRICE}` })
  .refine((price) => Math.abs(Math.round(price * 100) - price * 100) < 1e-6, { error: "Price must have at most 2 decimal places" })
  .meta({ example: 49.99 });

export const currencyCodeField = z
  .string({ error: requiredError("Currency code") })
  .trim()
  .toUpperCase()
  .refine((code) => CURRENCY_CODES.has(code), { error: "Currency code must be an ISO 4217 code such as USD" })
  .meta({ example: "USD" });

/**
 * One of the six locales the portal, the e-mails and the breach texts are written in (any case,
 * stored as written there): a locale the service does not have would come out in English.
 */
export const localeCodeField = z
  .string({ error: LOCALE_MESSAGE })
  .trim()
  .transform((code, context) => {
    const locale = LOCALE_CODES.find((known) => known.toLowerCase() === code.toLowerCase());
    if (!locale) context.addIssue({ code: "custom", message: LOCALE_MESSAGE });
    return locale ?? z.NEVER;
  })
  .meta({ description: `One of ${LOCALE_CODES.join(", ")}`, example: "en-GB" });

export const planIdField = uuidInput("Plan ID must be a valid UUID").meta({
  description: "A plan's id (GET /api/v1/integrations/partner/plans); wins over planType",
});

/** Existing clients send the plan's id as `planUuid` (docs/customers.md): one more name of planId. */
export const planUuidField = uuidInput("Plan UUID must be a valid UUID").meta({ description: "Another name of planId (existing clients)" });

/** The plan id under either of its names; 400 when both are sent and differ. */
export function planIdOf(input: { planId?: string; planUuid?: string }): string | undefined {
  if (input.planId !== undefined && input.planUuid !== undefined && input.planId !== input.planUuid) {
    throw badRequest("Validation failed: planUuid: planUuid and planId name the same field and differ");
  }
  return input.planId ?? input.planUuid;
}

export const planTypeField = z
  .string()
  .trim()
  .min(1, { error: "Plan type must not be empty" })
  .meta({ description: "A plan's planType, e.g. basic, plus or pro", example: "basic" });

/** A success answer's message: the operation's own text is its example in the OpenAPI document. */
export function successMessage(text: string) {
  return z.string().meta({ example: text });
}

export const customerIdBodyInput = z.object({ customerId: customerIdBody });

/** The answer of reactivate, upgrade and downgrade. */
export function statusChangeOutput(status: "active" | "prospect", message: string) {
  return z.object({
    success: successTrue,
    message: successMessage(message),
    customerId: z.string().meta({ format: "uuid" }),
    status: z.literal(status),
  });
}

/** Upgrade and downgrade answer a body that is not JSON like a missing id (docs/customers.md, "Status changes"). */
export const CUSTOMER_ID_REQUIRED = "Validation failed: customerId: Customer ID is required";

export const assetListsOutput = z.object({
  success: successTrue,
  domains: z.array(z.string()).meta({ example: ["example.com"] }),
  emails: z.array(z.string()).meta({ example: ["user@example.com"] }),
});
