import { z } from "zod";
import { INVALID_EMAIL } from "../customers/asset-values";
import { normalizeEmail } from "../email-address";
import { UUID_PATTERN } from "../uuid";

/**
 * An ISO 8601 date-time with Z or an offset whose instant falls in the years 1 to 9999 (PostgreSQL
 * has no year 0, and a later year has no four-digit form): one message for every refusal.
 */
export function isoDateTime(message: string | ((input: unknown) => string)) {
  const text = (input: unknown) => (typeof message === "string" ? message : message(input));
  return z.iso.datetime({ offset: true, error: (issue) => text(issue.input) }).refine(
    (value) => {
      const year = new Date(value).getUTCFullYear();
      return year >= 1 && year <= 9999;
    },
    { error: (issue) => text(issue.input) },
  );
}

/** A uuid input with one message for both a missing and a malformed value. */
export function uuidInput(message: string) {
  return z
    .string({ error: message })
    .regex(UUID_PATTERN, { error: message })
    .meta({ format: "uuid", example: "550e8400-e29b-41d4-a716-446655440000" });
}

/**
 * An integer query parameter: query strings arrive as text; "" and "abc" fail like a wrong type.
 * The OpenAPI document shows it as what it is read as, an integer with its default.
 */
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
    .transform((value) => value ?? defaultValue)
    .meta({
      override: ({ jsonSchema }) => {
        for (const key of Object.keys(jsonSchema)) if (key !== "description") delete jsonSchema[key as keyof typeof jsonSchema];
        Object.assign(jsonSchema, { type: "integer", default: defaultValue });
      },
    });
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

/**
 * Control characters (C0 with tab, CR and LF; DEL; C1) and the Unicode line and paragraph
 * separators: never part of a single-line field (docs/api.md, "Text fields").
 */
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

export function hasControlCharacter(value: string): boolean {
  return CONTROL_CHARACTER.test(value);
}

/** A non-blank single-line string, trimmed. */
export function requiredText(what: string, maxLength: number) {
  return z
    .string({ error: requiredError(what) })
    .trim()
    .min(1, { error: `${what} is required` })
    .max(maxLength, { error: `${what} must be at most ${maxLength} characters` })
    .refine((value) => !hasControlCharacter(value), { error: `${what} must not contain control characters` });
}

/** An optional single-line string, trimmed; null clears it. */
export function optionalText(maxLength: number) {
  return z
    .string()
    .trim()
    .max(maxLength, { error: `Must be at most ${maxLength} characters` })
    .refine((value) => !hasControlCharacter(value), { error: "Must not contain control characters" })
    .nullable()
    .optional();
}

/**
 * Where the first NUL character of a JSON value is, in a string or an object key: PostgreSQL
 * cannot store one in text, so no input may carry it (docs/api.md, "Text fields").
 */
export function nulCharacterPath(value: unknown, path: PropertyKey[] = []): PropertyKey[] | undefined {
  if (typeof value === "string") return value.includes("\u0000") ? path : undefined;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = nulCharacterPath(item, [...path, index]);
      if (found) return found;
    }
    return undefined;
  }
  if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      if (key.includes("\u0000")) return [...path, key.replaceAll("\u0000", "\\u0000")];
      const found = nulCharacterPath(item, [...path, key]);
      if (found) return found;
    }
  }
  return undefined;
}

export function emailField(what: string) {
  return z
    .string({ error: requiredError(what) })
    .trim()
    .max(254, { error: INVALID_EMAIL })
    .refine((value) => normalizeEmail(value) !== undefined, { error: INVALID_EMAIL })
    .meta({ format: "email" });
}
