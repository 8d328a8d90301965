import { z } from "zod";
import { BREACH_RETRIEVE_POLICY, retrieveBreaches, TOO_MANY_REQUESTS } from "../../../breaches/exposure-index/lookups";
import { config } from "../../../config";
import { rateLimitHeaders } from "../../../rate-limit";
import { successTrue } from "../../schemas";
import { partnerProcedure } from "../../trpc";
import { emailBreachEntrySchema, emailInput, localeInput } from "./schemas";

export const retrieve = partnerProcedure
  .meta({
    audit: { skip: "a lookup: changes nothing but the caller's rate-limit counter" },
    openapi: {
      method: "POST",
      path: "/api/v1/integrations/breach/retrieve",
      tags: ["Partner: breaches"],
      summary: "Retrieve the breaches of an e-mail address",
      description:
        "Every catalogue breach that exposes the address, newest first, with texts in `localeCode` (default en-GB). " +
        "`resolvedStatus` is the partner's own resolved flag for the address in that breach (false when none of its customers has it). " +
        "Sensitive breaches (HIBP IsSensitive) are included only when the address is a monitored e-mail address of one of the partner's customers. " +
        "Rate limited per API key: BREACH_RETRIEVE_RATE_LIMIT requests per minute (default 60), then 429 with Retry-After. " +
        'Every counted answer carries RateLimit-Policy (`"breach-retrieve";q=<limit>;w=60`) and RateLimit (`"breach-retrieve";r=<remaining>;t=<seconds to reset>`).',
    },
    errors: { failure: "Failed to retrieve breaches", invalidJson: "Request body must be valid JSON" },
    responses: { 429: TOO_MANY_REQUESTS },
    rateLimited: true,
  })
  .input(z.object({ email: emailInput, localeCode: localeInput() }))
  .output(z.object({ success: successTrue, email: z.string(), breaches: z.array(emailBreachEntrySchema) }))
  .mutation(async ({ ctx, input }) => {
    const { result, rateLimit } = await retrieveBreaches(ctx.db, ctx.caller, input.email, input.localeCode, {
      limitPerMinute: config.breachRetrieveRateLimit(),
    });
    Object.assign(ctx.response.headers, rateLimitHeaders(BREACH_RETRIEVE_POLICY, rateLimit));
    return { success: true as const, email: input.email, breaches: result };
  });
