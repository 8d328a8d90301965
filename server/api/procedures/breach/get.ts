import { z } from "zod";
import { BREACH_NOT_FOUND, getCatalogueBreach } from "../../../breaches/exposure-index/lookups";
import { UUID_PATTERN } from "../../../uuid";
import { successTrue } from "../../schemas";
import { partnerProcedure } from "../../trpc";
import { catalogueBreachSchema, localeInput } from "./schemas";

const optionalText = z
  .string()
  .optional()
  .transform((value) => value?.trim() || undefined);

export const get = partnerProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/api/v1/integrations/breach",
      tags: ["Partner: breaches"],
      summary: "Get a catalogue breach by name or uuid",
      description: "Exactly one of `name` (any case) and `uuid`. Texts in `localeCode` (default en-GB).",
    },
    errors: { failure: "Internal server error", validation: { prefix: "Invalid query parameters: " } },
    responses: { 400: "Invalid query parameters: Either name or uuid must be provided", 404: BREACH_NOT_FOUND },
  })
  .input(
    z
      .object({
        localeCode: localeInput(),
        name: optionalText.meta({ description: "Catalogue breach name, e.g. Adobe" }),
        uuid: optionalText.meta({ format: "uuid", description: "Breach record uuid" }),
      })
      .check((ctx) => {
        const { name, uuid } = ctx.value;
        if (!name && !uuid) ctx.issues.push({ code: "custom", message: "Either name or uuid must be provided", input: ctx.value });
        else if (name && uuid) ctx.issues.push({ code: "custom", message: "Provide either name or uuid, not both", input: ctx.value });
        else if (uuid && !UUID_PATTERN.test(uuid))
          ctx.issues.push({ code: "custom", message: "uuid must be a valid UUID", input: ctx.value });
      }),
  )
  .output(z.object({ success: successTrue, breach: catalogueBreachSchema }))
  .query(async ({ ctx, input }) => ({
    success: true as const,
    breach: await getCatalogueBreach(ctx.db, input.uuid ? { uuid: input.uuid } : { name: input.name! }, input.localeCode),
  }));
