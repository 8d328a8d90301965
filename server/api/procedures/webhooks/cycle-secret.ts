import { z } from "zod";
import { cycleSecret as cycleSecretService } from "../../../webhooks/secrets";
import { successTrue } from "../../schemas";
import { newSecretSchema, scopeInput } from "./schemas";
import type { WebhookSurface } from "./surfaces";

export function cycleSecret(surface: WebhookSurface) {
  return surface.procedure
    .meta({
      audit: { action: "webhook-secret.cycle", target: { type: "webhook-secret" } },
      openapi: {
        method: "POST",
        path: `${surface.basePath}/secrets/cycle`,
        tags: surface.tags,
        summary: "Cycle the signing secret",
        description:
          "A new active secret; the previous active one becomes the fallback (an older fallback retires). " +
          "While a fallback exists, a delivery whose answer refuses the signature (401, 403, or a 2xx without a valid answer signature) " +
          "is sent again at once, signed with the fallback, so receivers still on it keep receiving. The token is shown once.",
      },
      errors: { failure: "Failed to cycle signing secret" },
    })
    .input(scopeInput)
    .output(z.object({ success: successTrue, secret: newSecretSchema }))
    .mutation(async ({ ctx }) => ({ success: true as const, secret: await cycleSecretService(ctx.db, ctx.owner) }));
}
