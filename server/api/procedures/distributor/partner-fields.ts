import { z } from "zod";
import { emailField, optionalText, requiredText } from "../../schemas";

/** The partner fields a distributor sets (docs/distributors.md, "Partners"); null clears an optional one. */
export const partnerFieldsShape = {
  name: requiredText("Name", 200).meta({ example: "API Test Partner" }),
  contact_email: emailField("Contact email").nullable().optional(),
  reply_to_email: emailField("Reply-to email").nullable().optional(),
  product_type: optionalText(200).meta({ example: "Standard" }),
  account_reference: optionalText(200).meta({ example: "ref-123" }),
  monthly_churn_limit: z
    .number()
    .int({ error: "Must be a whole number" })
    .min(0, { error: "Must be at least 0" })
    .max(2_147_483_647, { error: "Too big" })
    .nullable()
    .optional(),
  basic_billing_code: optionalText(100).meta({ description: "The code of one of the distributor's billing codes" }),
  plus_billing_code: optionalText(100),
  pro_billing_code: optionalText(100),
  send_customer_welcome_emails: z.boolean().optional().meta({ description: "Default true" }),
  send_transactional_emails: z.boolean().optional().meta({ description: "Default true" }),
};

export const partnerIdPath = z.string().meta({ format: "uuid", description: "The partner's uuid" });

export { partnerRecordSchema } from "../../../distributors/partners";

export const API_KEYS_PATH = "/api/v1/distributors/partners/{partnerUuid}/api-keys";
export const API_KEYS_TAGS = ["Distributor: partner API keys"];
