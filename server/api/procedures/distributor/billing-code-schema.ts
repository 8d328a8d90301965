import { z } from "zod";
import { requiredText } from "../../schemas";

export const billingCodeSchema = z
  .object({
    id: z.number().int(),
    code: z.string().meta({ example: "SW-A" }),
    price: z.number().meta({ example: 2.5 }),
    currency: z.string().meta({ example: "EUR", description: "ISO 4217 code of the price" }),
    retired: z.boolean().meta({ description: "A retired code stays with the partners that have it but cannot be given to another" }),
  })
  .meta({ id: "BillingCode" });

const CURRENCY_CODES = new Set(Intl.supportedValuesOf("currency"));

/** A billing code's fields (the admin UI; the API only reads codes). */
export const billingCodeInput = z.object({
  code: requiredText("Code", 100).meta({ example: "SW-A" }),
  price: z
    .number({ error: "Price must be a number" })
    .min(0, { error: "Price must be at least 0" })
    .max(9_999_999_999.99, { error: "Price is too large" })
    .refine((price) => /^\d+(\.\d{1,2})?$/.test(String(price)), { error: "Price can have at most 2 decimals" }),
  currency: z
    .string()
    .trim()
    .toUpperCase()
    .refine((code) => CURRENCY_CODES.has(code), { error: "Currency must be an ISO 4217 code such as EUR" })
    .optional()
    .meta({ description: "Default EUR" }),
});
