import { z } from "zod";
import { deactivateSecret as deactivateSecretService, SECRET_NOT_FOUND } from "../../../webhooks/secrets";
import { successTrue, uuidInput } from "../../schemas";
import type { WebhookSurface } from "./surfaces";

export function deactivateSecret(surface: WebhookSurface) {
  return surface.procedure
    .meta({
      audit: { action: "webhook-secret.deactivate", target: { type: "webhook-secret", key: "id" } },
      openapi: {
        method: "DELETE",
        path: `${surface.basePath}/secrets/{id}`,
        tags: surface.tags,
        summary: "Deactivate a signing secret",
        description: "Without an active secret, deliveries fail without being sent until a new secret is generated.",
      },
      errors: { failure: "Failed to deactivate signing secret" },
      responses: { 404: SECRET_NOT_FOUND },
    })
    .input(z.object({ id: uuidInput("Invalid secret ID") }))
    .output(z.object({ success: successTrue }))
    .mutation(async ({ ctx, input }) => {
      await deactivateSecretService(ctx.db, ctx.owner, input.id);
      return { success: true as const };
    });
}
