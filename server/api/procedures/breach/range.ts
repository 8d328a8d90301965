import { z } from "zod";
import { config } from "../../../config";
import { BREACH_CHECK_POLICY, TOO_MANY_REQUESTS } from "../../../breaches/exposure-index/lookups";
import { RANGE_ENTRIES, RANGE_PREFIX_PATTERN, rangeLookup } from "../../../breaches/exposure-index/range";
import { rateLimitHeaders } from "../../../rate-limit";
import { successTrue } from "../../schemas";
import { partnerProcedure } from "../../trpc";

const PREFIX_MESSAGE = "prefix must be the first 6 hexadecimal characters of the address's SHA-1";
const ROUTE_PREFIX = "Invalid route parameters: ";

const rangeEntrySchema = z
  .object({
    suffix: z.string().meta({
      description: "The other 34 characters of the SHA-1 (upper-case hex)",
      example: "3A9F4E0B7C21D5E8F6A0B1C2D3E4F5A6B7",
    }),
    breachNames: z.array(z.string()).meta({ description: "Catalogue breach names", example: ["Adobe"] }),
  })
  .meta({ id: "BreachRangeEntry" });

export const range = partnerProcedure
  .meta({
    audit: { skip: "a lookup: changes nothing but the caller's rate-limit counter" },
    openapi: {
      method: "GET",
      path: "/api/v1/integrations/breach/range/{prefix}",
      tags: ["Partner: breaches"],
      summary: "Look up addresses by the prefix of their SHA-1",
      description:
        "`prefix` is the first 6 hex characters (either case) of the SHA-1 of the normalized, lower-case address. " +
        `Always exactly ${RANGE_ENTRIES} entries sorted by suffix: every indexed address with that prefix (its breaches that are neither sensitive ` +
        "nor stealer logs; at most the 64 lowest suffixes), padded with decoys. Compare the suffix of your own address locally. " +
        "Counted against the API key's breach/check budget (BREACH_CHECK_RATE_LIMIT per minute), with the same RateLimit-Policy and RateLimit fields and 429.",
    },
    errors: { failure: "Failed to look up breach range", validation: { prefix: ROUTE_PREFIX } },
    responses: { 400: ROUTE_PREFIX + PREFIX_MESSAGE, 429: TOO_MANY_REQUESTS },
    rateLimited: true,
  })
  .input(
    z.object({
      prefix: z
        .string({ error: PREFIX_MESSAGE })
        .regex(RANGE_PREFIX_PATTERN, { error: PREFIX_MESSAGE })
        .meta({ description: "The first 6 hex characters of the address's SHA-1", example: "5BAA61" }),
    }),
  )
  .output(z.object({ success: successTrue, entries: z.array(rangeEntrySchema).length(RANGE_ENTRIES) }))
  .query(async ({ ctx, input }) => {
    const { result, rateLimit } = await rangeLookup(ctx.db, ctx.caller, input.prefix, { limitPerMinute: config.breachCheckRateLimit() });
    Object.assign(ctx.response.headers, rateLimitHeaders(BREACH_CHECK_POLICY, rateLimit));
    return { success: true as const, entries: result };
  });
