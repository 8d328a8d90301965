import { z } from "zod";
import { listDeliveries as listDeliveriesService } from "../../../webhooks/delivery-log";
import { queryInteger, successTrue } from "../../schemas";
import { deliveryResponse, deliverySchema, deliveryStatusSchema, endpointIdInput } from "./schemas";
import type { WebhookSurface } from "./surfaces";

/** Serves all three surfaces. */
export function listDeliveries(surface: WebhookSurface) {
  return surface.procedure
    .meta({
      openapi: {
        method: "GET",
        path: `${surface.basePath}/{id}/deliveries`,
        tags: surface.tags,
        summary: "List an endpoint's deliveries",
        description: "The delivery log, newest first, each delivery with its attempts.",
      },
      errors: { failure: "Failed to list deliveries" },
      responses: { 404: "Webhook not found" },
    })
    .input(
      z.object({
        id: endpointIdInput,
        page: queryInteger(1).pipe(z.number().min(1, { error: "page must be at least 1" })),
        pageSize: queryInteger(20).pipe(
          z.number().min(1, { error: "pageSize must be from 1 to 100" }).max(100, { error: "pageSize must be from 1 to 100" }),
        ),
        status: deliveryStatusSchema.optional(),
      }),
    )
    .output(
      z.object({
        success: successTrue,
        deliveries: z.array(deliverySchema),
        pagination: z.object({
          totalCount: z.number().int(),
          page: z.number().int(),
          pageSize: z.number().int(),
          hasNextPage: z.boolean(),
        }),
      }),
    )
    .query(async ({ ctx, input }) => {
      const { deliveries, totalCount } = await listDeliveriesService(ctx.db, ctx.owner, surface.protocol, input.id, input);
      return {
        success: true as const,
        deliveries: deliveries.map(deliveryResponse),
        pagination: { totalCount, page: input.page, pageSize: input.pageSize, hasNextPage: input.page * input.pageSize < totalCount },
      };
    });
}
