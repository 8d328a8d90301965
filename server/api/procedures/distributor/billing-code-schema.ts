import { z } from "zod";
import { requiredText } from "../../schemas";

export const billingCodeSchema = z
  .object({ id: z.number().int(), code: z.string().meta({ example: "SW-A" }), price: z.number().meta({ example: 2.5 }) })
  .meta({ id: "BillingCode" });

/** A new billing code (the admin UI; the API only reads codes). */
export const billingCodeInput = z.object({
  code: requiredText("Code", 100).meta({ example: "SW-A" }),
  price: z
    .number({ error: "Price must be a number" })
    .min(0, { error: "Price must be at least 0" })
    .max(9_999_999_999.99, { error: "Price is too large" })
    .refine((price) => /^\d+(\.\d{1,2})?$/.test(String(price)), { error: "Price can have at most 2 decimals" }),
});
