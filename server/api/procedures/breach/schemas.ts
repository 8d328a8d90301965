import { z } from "zod";
import { normalizeEmail } from "../../../email-address";
import { DEFAULT_LOCALE, LOCALE_CODES } from "../../../i18n/locales";

export const LOCALE_MESSAGE = `localeCode must be one of ${LOCALE_CODES.join(", ")}`;

/** An optional locale of the six the service supports (docs/breaches.md; default en-GB). */
export function localeInput(message = LOCALE_MESSAGE) {
  return z
    .enum(LOCALE_CODES, { error: message })
    .optional()
    .transform((locale) => locale ?? DEFAULT_LOCALE)
    .meta({ description: "Locale of the texts (default en-GB)", example: "en-GB" });
}

/** An e-mail address, normalized as the exposure index holds it (server/email-address.ts). */
export const emailInput = z
  .string({ error: "Email is required" })
  .transform((value, ctx) => {
    const email = normalizeEmail(value);
    if (!email) {
      ctx.addIssue({ code: "custom", message: "Invalid email address" });
      return z.NEVER;
    }
    return email;
  })
  .meta({ format: "email", example: "user@example.com" });

const categories = z.array(z.string()).meta({ example: ["Email addresses", "Passwords"] });
const steps = z.array(z.string());

export const catalogueBreachSchema = z
  .object({
    uuid: z.string().meta({ format: "uuid" }),
    name: z.string().meta({ example: "Adobe" }),
    title: z.string(),
    addedDate: z.string().meta({ format: "date-time", example: "2013-12-04T00:00:00.000Z" }),
    breachCategories: categories,
    description: z.string(),
    nextSteps: steps,
  })
  .meta({ id: "CatalogueBreach" });

export const emailBreachEntrySchema = z
  .object({
    title: z.string(),
    description: z.string(),
    breachDate: z.string().meta({ format: "date", example: "2021-01-01" }),
    breachCategories: categories,
    nextSteps: steps,
    resolvedStatus: z.boolean(),
  })
  .meta({ id: "EmailBreachEntry" });

export const customerBreachEntrySchema = z
  .object({
    id: z.string().meta({ format: "uuid", description: "The breach instance (breach/status breachId; webhook breach uuid)" }),
    breachName: z.string().meta({ example: "Adobe" }),
    title: z.string(),
    emails: z.array(z.string()),
    breachDate: z.string().meta({ example: "2013-10-04T00:00:00+00:00" }),
    breachCategories: categories,
    resolved: z.boolean(),
    generatedDescription: z.string(),
    nextSteps: steps,
    websiteDomains: z
      .array(z.string())
      .optional()
      .meta({ description: "Stealer-log instances only: the websites whose passwords malware captured for these addresses" }),
  })
  .meta({ id: "CustomerBreachEntry" });

export const redactedBreachEntrySchema = z
  .object({
    id: z.string().meta({ format: "uuid", description: "The breach instance" }),
    emails: z.array(z.string()),
    resolved: z.boolean(),
  })
  .meta({ id: "RedactedBreachEntry" });

export const breachCategorySchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    description: z.string(),
    tooltip: z.string(),
    link: z.string().meta({
      example: "/kb/breach-categories/passwords",
      description: "The category's page on this service (a path under its address), in the six locales (`?lang=sv-SE`)",
    }),
    isBlacklist: z.boolean(),
    createdAt: z.string().meta({ format: "date-time" }),
  })
  .meta({ id: "BreachCategory" });
