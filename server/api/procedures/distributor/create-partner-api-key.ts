import { z } from "zod";
import { issuePartnerApiKey } from "../../../distributors/partner-api-keys";
import { INVALID_PARTNER_ID, PARTNER_NOT_FOUND } from "../../../distributors/partners";
import { successTrue } from "../../schemas";
import { distributorProcedure } from "../../trpc";
import { API_KEYS_PATH, API_KEYS_TAGS, partnerIdPath } from "./partner-fields";

export const createPartnerApiKey = distributorProcedure
  .meta({
    audit: { action: "partner.api-key-issue", target: { type: "partner", key: "partnerUuid" } },
    openapi: {
      method: "POST",
      path: API_KEYS_PATH,
      tags: API_KEYS_TAGS,
      summary: "Issue an API key for a partner",
      description: "The key is in this answer only; the service keeps a hash. The partner's other keys stay valid.",
    },
    errors: { failure: "Internal server error", invalidJson: "Request body must be valid JSON" },
    responses: { 400: INVALID_PARTNER_ID, 404: PARTNER_NOT_FOUND },
  })
  .input(z.object({ partnerUuid: partnerIdPath }))
  .output(
    z.object({
      success: successTrue,
      data: z.object({ id: z.string().meta({ format: "uuid" }), apiKey: z.string().meta({ example: "expmon_p_..." }) }),
    }),
  )
  .mutation(async ({ ctx, input }) => ({
    success: true as const,
    data: await issuePartnerApiKey(ctx.db, ctx.caller.distributorId, input.partnerUuid),
  }));
