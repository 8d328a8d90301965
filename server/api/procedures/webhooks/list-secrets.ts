import { z } from "zod";
import { listSecrets as listSecretsService } from "../../../webhooks/secrets";
import { emptyInput, successTrue } from "../../schemas";
import { secretListItemSchema } from "./schemas";
import type { WebhookSurface } from "./surfaces";

export function listSecrets(surface: WebhookSurface) {
  return surface.procedure
    .meta({
      openapi: {
        method: "GET",
        path: `${surface.basePath}/secrets`,
        tags: surface.tags,
        summary: "List signing secrets",
        description: "The active and the fallback secret, never their tokens.",
      },
      errors: { failure: "Failed to list signing secrets" },
    })
    .input(emptyInput)
    .output(z.object({ success: successTrue, secrets: z.array(secretListItemSchema) }))
    .query(async ({ ctx }) => ({
      success: true as const,
      secrets: (await listSecretsService(ctx.db, ctx.owner)).map((secret) => ({ ...secret, createdAt: secret.createdAt.toISOString() })),
    }));
}
