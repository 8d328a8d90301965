import { z } from "zod";
import { INVALID_EMAIL } from "../customers/asset-values";
import { normalizeEmail } from "../email-address";
import { UUID_PATTERN } from "../uuid";

/** A uuid input with one message for both a missing and a malformed value. */
export function uuidInput(message: string) {
  return z
    .string({ error: message })
    .regex(UUID_PATTERN, { error: message })
    .meta({ format: "uuid", example: "550e8400-e29b-41d4-a716-446655440000" });
}

/** An integer query parameter: query strings arrive as text; "" and "abc" fail like a wrong type. */
export function queryInteger(defaultValue: number) {
  return z
    .union([z.number(), z.string()])
    .transform((value, ctx) => {
      const parsed = typeof value === "number" ? value : value.trim() === "" ? Number.NaN : Number(value);
      if (!Number.isFinite(parsed)) {
        ctx.addIssue({ code: "custom", message: "Invalid input: expected number, received string" });
        return z.NEVER;
      }
      return parsed;
    })
    .pipe(z.number().int({ error: "Invalid input: expected int, received number" }))
    .optional()
    .transform((value) => value ?? defaultValue);
}

export const successTrue = z.literal(true).meta({ example: true });

export const planSchema = z
  .object({
    id: z.string().meta({ format: "uuid" }),
    displayName: z.string(),
    features: z.array(z.object({ feature_name: z.string() })),
    isSystemDefault: z.boolean(),
    planType: z.string(),
    status: z.string().meta({ example: "active" }),
    allowsInsurance: z.boolean(),
  })
  .meta({ id: "Plan" });

export const emptyInput = z.object({});

/** "<what> is required" when missing or null, zod's type message otherwise. */
export function requiredError(what: string) {
  return (issue: { input?: unknown }) => (issue.input === undefined || issue.input === null ? `${what} is required` : undefined);
}

/** A non-blank string, trimmed. */
export function requiredText(what: string, maxLength: number) {
  return z
    .string({ error: requiredError(what) })
    .trim()
    .min(1, { error: `${what} is required` })
    .max(maxLength, { error: `${what} must be at most ${maxLength} characters` });
}

export function emailField(what: string) {
  return z
    .string({ error: requiredError(what) })
    .trim()
    .max(254, { error: INVALID_EMAIL })
    .refine((value) => normalizeEmail(value) !== undefined, { error: INVALID_EMAIL })
    .meta({ format: "email" });
}
