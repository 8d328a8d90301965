import { z } from "zod";
import { createEndpoint as createEndpointService } from "../../../webhooks/endpoints";
import { successTrue } from "../../schemas";
import { endpointCreateBody, endpointResponse, endpointSchema } from "./schemas";
import type { WebhookSurface } from "./surfaces";

export function createEndpoint(surface: WebhookSurface) {
  return surface.procedure
    .meta({
      audit: { action: "webhook.create", target: { type: "webhook" } },
      openapi: {
        method: "POST",
        path: surface.basePath,
        tags: surface.tags,
        summary: "Register a webhook endpoint",
        description:
          "The URL must be https and resolve to a public address (unless the service runs with WEBHOOK_ALLOW_PRIVATE_URLS=true, " +
          "for local testing). The response carries `webhook.secret`: the organization's active signing token (generated " +
          "when there is none); no other response shows it.\n\n**What the receiver must answer.** With `signatureScheme` " +
          '`"x-signature"` (the default): a 2xx carrying the header `X-Signature` = hex HMAC-SHA256(token, `X-Token` + ":" + ' +
          'raw body); a 2xx without it is a failed attempt. With `"standard-webhooks"`: any 2xx. Complete receivers in ' +
          "TypeScript, Python and PHP: [Receive webhooks](/docs/webhooks#receive-webhooks).",
      },
      errors: { failure: "Failed to create webhook" },
    })
    .input(endpointCreateBody)
    .output(z.object({ success: successTrue, webhook: endpointSchema.extend({ secret: z.string() }) }))
    .mutation(async ({ ctx, input }) => {
      const { endpoint, secret } = await createEndpointService(ctx.db, ctx.owner, "current", input);
      return { success: true as const, webhook: { ...endpointResponse(endpoint), secret } };
    });
}
