import { z } from "zod";
import { listEndpoints as listEndpointsService } from "../../../../webhooks/endpoints";
import { emptyInput, successTrue } from "../../../schemas";
import { legacyEndpointResponse, legacyEndpointSchema } from "../schemas";
import { legacySurface } from "../surfaces";

export const listLegacyEndpoints = legacySurface.procedure
  .meta({
    openapi: {
      method: "GET",
      path: legacySurface.basePath,
      tags: legacySurface.tags,
      summary: "List webhooks (earlier protocol)",
      description: "Newest first.",
    },
    errors: { failure: "Failed to list webhooks" },
  })
  .input(emptyInput)
  .output(z.object({ success: successTrue, webhooks: z.array(legacyEndpointSchema) }))
  .query(async ({ ctx }) => ({
    success: true as const,
    webhooks: (await listEndpointsService(ctx.db, ctx.owner, "legacy")).map(legacyEndpointResponse),
  }));
