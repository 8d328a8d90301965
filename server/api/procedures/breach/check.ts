import { z } from "zod";
import { config } from "../../../config";
import { BREACH_CHECK_POLICY, checkBreach, TOO_MANY_REQUESTS } from "../../../breaches/exposure-index/lookups";
import { rateLimitHeaders } from "../../../rate-limit";
import { successTrue } from "../../schemas";
import { partnerProcedure } from "../../trpc";
import { emailInput } from "./schemas";

export const check = partnerProcedure
  .meta({
    audit: { skip: "a lookup: changes nothing but the caller's rate-limit counter" },
    openapi: {
      method: "POST",
      path: "/api/v1/integrations/breach/check",
      tags: ["Partner: breaches"],
      summary: "Check whether an e-mail address appears in a breach",
      description:
        "With `resolved`, only breaches whose resolved flag for the address (the partner's own; none counts as unresolved) matches. " +
        "A sensitive breach (HIBP IsSensitive) counts only when the address is a monitored e-mail address of one of the partner's customers. " +
        "Rate limited per API key: BREACH_CHECK_RATE_LIMIT requests per minute (default 60), then 429 with Retry-After. " +
        'Every counted answer carries RateLimit-Policy (`"breach-check";q=<limit>;w=60`) and RateLimit (`"breach-check";r=<remaining>;t=<seconds to reset>`).',
    },
    errors: { failure: "Failed to check breach status", invalidJson: "Request body must be valid JSON" },
    responses: { 429: TOO_MANY_REQUESTS },
    rateLimited: true,
  })
  .input(z.object({ email: emailInput, resolved: z.boolean({ error: "resolved must be a boolean" }).optional() }))
  .output(z.object({ success: successTrue, breach: z.boolean() }))
  .mutation(async ({ ctx, input }) => {
    const { result, rateLimit } = await checkBreach(ctx.db, ctx.caller, input, { limitPerMinute: config.breachCheckRateLimit() });
    Object.assign(ctx.response.headers, rateLimitHeaders(BREACH_CHECK_POLICY, rateLimit));
    return { success: true as const, breach: result };
  });
