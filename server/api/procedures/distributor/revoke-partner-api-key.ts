import { z } from "zod";
import { revokePartnerApiKey as revokePartnerApiKeyService } from "../../../distributors/partner-api-keys";
import { INVALID_PARTNER_ID } from "../../../distributors/partners";
import { successTrue } from "../../schemas";
import { distributorProcedure } from "../../trpc";
import { API_KEYS_PATH, API_KEYS_TAGS, partnerIdPath } from "./partner-fields";

export const revokePartnerApiKey = distributorProcedure
  .meta({
    audit: { action: "partner.api-key-revoke", target: { type: "api-key", key: "keyId" } },
    openapi: {
      method: "DELETE",
      path: `${API_KEYS_PATH}/{keyId}`,
      tags: API_KEYS_TAGS,
      summary: "Revoke a partner's API key",
      description: "The key stops working at once. Revoking a revoked key changes nothing. Unknown partner: 404 Partner not found.",
    },
    errors: { failure: "Internal server error" },
    responses: { 400: INVALID_PARTNER_ID, 404: "API key not found" },
  })
  .input(z.object({ partnerUuid: partnerIdPath, keyId: z.string().meta({ format: "uuid" }) }))
  .output(z.object({ success: successTrue }))
  .mutation(async ({ ctx, input }) => {
    await revokePartnerApiKeyService(ctx.db, ctx.caller.distributorId, input.partnerUuid, input.keyId);
    return { success: true as const };
  });
