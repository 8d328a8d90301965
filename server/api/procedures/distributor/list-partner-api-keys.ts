import { z } from "zod";
import { listPartnerApiKeys as listPartnerApiKeysService } from "../../../distributors/partner-api-keys";
import { INVALID_PARTNER_ID, PARTNER_NOT_FOUND } from "../../../distributors/partners";
import { successTrue } from "../../schemas";
import { distributorProcedure } from "../../trpc";
import { API_KEYS_PATH, API_KEYS_TAGS, partnerIdPath } from "./partner-fields";

const timestamp = z.iso.datetime().meta({ example: "2026-01-31T12:00:00.000Z" });

export const listPartnerApiKeys = distributorProcedure
  .meta({
    openapi: {
      method: "GET",
      path: API_KEYS_PATH,
      tags: API_KEYS_TAGS,
      summary: "List a partner's API keys",
      description: "Newest first, revoked ones included. Shows each key's clear prefix, never the key.",
    },
    errors: { failure: "Internal server error" },
    responses: { 400: INVALID_PARTNER_ID, 404: PARTNER_NOT_FOUND },
  })
  .input(z.object({ partnerUuid: partnerIdPath }))
  .output(
    z.object({
      success: successTrue,
      data: z.array(
        z.object({
          id: z.string().meta({ format: "uuid" }),
          prefix: z.string().meta({ example: "expmon_p_AbC123dEf456" }),
          createdAt: timestamp,
          lastUsedAt: timestamp.nullable(),
          revokedAt: timestamp.nullable(),
        }),
      ),
    }),
  )
  .query(async ({ ctx, input }) => {
    const keys = await listPartnerApiKeysService(ctx.db, ctx.caller.distributorId, input.partnerUuid);
    return {
      success: true as const,
      data: keys.map((key) => ({
        id: key.id,
        prefix: key.prefix,
        createdAt: key.createdAt.toISOString(),
        lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
        revokedAt: key.revokedAt?.toISOString() ?? null,
      })),
    };
  });
