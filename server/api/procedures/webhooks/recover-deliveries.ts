import { z } from "zod";
import { INVALID_WEBHOOK_ID, WEBHOOK_NOT_FOUND } from "../../../webhooks/endpoints";
import { RECOVER_DISABLED, RECOVER_UNTIL_BEFORE_SINCE, recoverDeliveries as recoverDeliveriesService } from "../../../webhooks/recover";
import { isoDateTime, successTrue } from "../../schemas";
import { endpointIdInput } from "./schemas";
import type { WebhookSurface } from "./surfaces";

/** An ISO 8601 date-time with Z or an offset, with or without fractions of a second. */
function windowBound(name: "since" | "until") {
  return isoDateTime((input) => (input === undefined ? `${name} is required` : `${name} must be an ISO 8601 date-time`)).transform(
    (value) => new Date(value),
  );
}

/** Serves all three surfaces. */
export function recoverDeliveries(surface: WebhookSurface) {
  return surface.procedure
    .meta({
      audit: { action: "webhook.recover", target: { type: "webhook", key: "id" } },
      openapi: {
        method: "POST",
        path: `${surface.basePath}/{id}/recover`,
        tags: surface.tags,
        summary: "Recover failed deliveries",
        description:
          "Queues again, each with a fresh round of attempts (the same body and idempotency token), every failed delivery of the " +
          "endpoint created from `since` (inclusive) to `until` (exclusive; default now), test deliveries excepted. They are sent " +
          "oldest first. Answers how many were queued. A disabled endpoint must be enabled first.",
      },
      errors: { failure: "Failed to recover deliveries", validation: "message" },
      responses: {
        400: [
          INVALID_WEBHOOK_ID,
          "since is required",
          "since must be an ISO 8601 date-time",
          "until must be an ISO 8601 date-time",
          RECOVER_UNTIL_BEFORE_SINCE,
        ],
        404: WEBHOOK_NOT_FOUND,
        409: RECOVER_DISABLED,
      },
    })
    .input(
      z.object({
        id: endpointIdInput,
        since: windowBound("since").meta({ description: "Start of the window (inclusive)", example: "2026-11-25T10:00:00Z" }),
        until: windowBound("until")
          .optional()
          .meta({ description: "End of the window (exclusive); default now", example: "2026-11-25T12:00:00+02:00" }),
      }),
    )
    .output(z.object({ success: successTrue, queued: z.number().int().meta({ description: "Deliveries queued again" }) }))
    .mutation(async ({ ctx, input }) => ({
      success: true as const,
      queued: await recoverDeliveriesService(ctx.db, ctx.owner, surface.protocol, input.id, { since: input.since, until: input.until }),
    }));
}
