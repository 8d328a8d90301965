import { z } from "zod";
import { generateSecret as generateSecretService } from "../../../webhooks/secrets";
import { successTrue } from "../../schemas";
import { newSecretSchema, scopeInput } from "./schemas";
import type { WebhookSurface } from "./surfaces";

export function generateSecret(surface: WebhookSurface) {
  return surface.procedure
    .meta({
      audit: { action: "webhook-secret.generate", target: { type: "webhook-secret" } },
      openapi: {
        method: "POST",
        path: `${surface.basePath}/secrets`,
        tags: surface.tags,
        summary: "Generate a signing secret",
        description:
          "A new active secret that replaces every existing one at once (for a leaked secret: no fallback is kept). " +
          "The token is shown once. To rotate without interruption, cycle instead.",
      },
      errors: { failure: "Failed to generate signing secret" },
    })
    .input(scopeInput)
    .output(z.object({ success: successTrue, secret: newSecretSchema }))
    .mutation(async ({ ctx }) => ({ success: true as const, secret: await generateSecretService(ctx.db, ctx.owner) }));
}
