import { z } from "zod";
import { getEndpoint as getEndpointService } from "../../../../webhooks/endpoints";
import { successTrue } from "../../../schemas";
import { endpointIdInput, legacyEndpointResponse, legacyEndpointSchema } from "../schemas";
import { legacySurface } from "../surfaces";

export const getLegacyEndpoint = legacySurface.procedure
  .meta({
    openapi: {
      method: "GET",
      path: `${legacySurface.basePath}/{id}`,
      tags: legacySurface.tags,
      summary: "Get a webhook (earlier protocol)",
    },
    errors: { failure: "Failed to retrieve webhook" },
    responses: { 400: "Invalid webhook ID", 404: "Webhook not found" },
  })
  .input(z.object({ id: endpointIdInput }))
  .output(z.object({ success: successTrue, webhook: legacyEndpointSchema }))
  .query(async ({ ctx, input }) => ({
    success: true as const,
    webhook: legacyEndpointResponse(await getEndpointService(ctx.db, ctx.owner, "legacy", input.id)),
  }));
