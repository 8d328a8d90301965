import { z } from "zod";

/** Any 8-4-4-4-12 hex id (what PostgreSQL's uuid type accepts). */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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
