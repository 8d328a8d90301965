import { z } from "zod";
import { retrieveBreaches } from "../../../breaches/lookups";
import { successTrue } from "../../schemas";
import { partnerProcedure } from "../../trpc";
import { emailBreachEntrySchema, emailInput, localeInput } from "./schemas";

export const retrieve = partnerProcedure
  .meta({
    openapi: {
      method: "POST",
      path: "/api/v1/integrations/breach/retrieve",
      tags: ["Partner: breaches"],
      summary: "Retrieve the breaches of an e-mail address",
      description:
        "Every catalogue breach that exposes the address, newest first, with texts in `localeCode` (default en-GB). " +
        "`resolvedStatus` is the partner's own resolved flag for the address in that breach (false when none of its customers has it). " +
        "Sensitive breaches (HIBP IsSensitive) are included only when the address is a monitored e-mail address of one of the partner's customers.",
    },
    errors: { failure: "Failed to retrieve breaches", invalidJson: "Request body must be valid JSON" },
  })
  .input(z.object({ email: emailInput, localeCode: localeInput() }))
  .output(z.object({ success: successTrue, email: z.string(), breaches: z.array(emailBreachEntrySchema) }))
  .mutation(async ({ ctx, input }) => ({
    success: true as const,
    email: input.email,
    breaches: await retrieveBreaches(ctx.db, ctx.caller.partnerId, input.email, input.localeCode),
  }));
