import { z } from "zod";
import { listDeliveries, requeueDelivery, sendTestEvent } from "../../../webhooks/delivery-log";
import { createEndpoint, deleteEndpoint, getEndpoint, updateEndpoint } from "../../../webhooks/endpoints";
import type { WebhookOwner } from "../../../webhooks/owner";
import { recoverDeliveries } from "../../../webhooks/recover";
import { cycleSecret, deactivateSecret, generateSecret, listSecrets } from "../../../webhooks/secrets";
import {
  ENDPOINT_STATES,
  findVisibleEndpoint,
  listOwnEndpoints,
  listPartnerEndpoints,
  oldestFailedDeliveryAt,
  type VisibleEndpoint,
} from "../../../webhooks/staff-view";
import { isoDateTime, uuidInput } from "../../schemas";
import {
  deliveryResponse,
  deliveryStatusSchema,
  endpointCreateInput,
  endpointIdInput,
  endpointResponse,
  endpointUpdateInput,
  eventTypeSchema,
} from "../../procedures/webhooks/schemas";
import type { StaffContext } from "../../audit";
import { requires, router, staffProcedure } from "../../trpc";
import { iso, pageInput } from "./inputs";

export const DELIVERIES_PAGE_SIZE = 20;
export const PARTNER_ENDPOINTS_PAGE_SIZE = 50;

/** The distributor's webhooks: its current-protocol endpoints and signing secrets (as on the distributor API). */
const distributorWebhooks = staffProcedure.use(({ ctx, next }) =>
  next({ ctx: { owner: { distributorId: ctx.staff.distributorId } satisfies WebhookOwner } }),
);

const endpointInput = z.object({ id: endpointIdInput });

/** An endpoint with its owner and health, as the browser receives it (dates as ISO text). */
function visibleEndpointResponse(endpoint: VisibleEndpoint) {
  const { health } = endpoint;
  return {
    id: endpoint.id,
    protocol: endpoint.protocol,
    url: endpoint.url,
    eventTypes: endpoint.eventTypes,
    maxAttempts: endpoint.maxAttempts,
    createdAt: iso(endpoint.createdAt),
    owner: endpoint.owner,
    health: {
      ...health,
      disabledAt: iso(health.disabledAt),
      lastSuccessAt: iso(health.lastSuccessAt),
      failingSince: iso(health.failingSince),
    },
  };
}

/** An ISO 8601 date-time with Z or an offset (the recover window, as on the REST surfaces). */
const windowBound = (name: "since" | "until") =>
  isoDateTime((input) => (input === undefined ? `${name} is required` : `${name} must be an ISO 8601 date-time`)).transform(
    (value) => new Date(value),
  );

/**
 * Any endpoint the staff member's distributor may see: its own or one of its partners' (both
 * protocols). The webhook services are then called as that endpoint's owner, so they check the
 * scope again; another distributor's endpoint is `Webhook not found`.
 */
const anyVisibleEndpoint = staffProcedure.use(async ({ ctx, getRawInput, next }) => {
  const raw = (await getRawInput()) as { id?: unknown } | undefined;
  const endpoint = await findVisibleEndpoint(ctx.db, ctx.staff.distributorId, typeof raw?.id === "string" ? raw.id : "");
  return next({ ctx: { endpoint } });
});

export const webhooksRouter = router({
  /** The distributor's own endpoints with their health. */
  list: staffProcedure
    .requires("viewer")
    .query(async ({ ctx }) => (await listOwnEndpoints(ctx.db, ctx.staff.distributorId)).map(visibleEndpointResponse)),

  /** Its partners' endpoints (both protocols) with their health, by partner; optionally one state. */
  partnerEndpoints: staffProcedure
    .requires("viewer")
    .input(z.object({ page: pageInput, state: z.enum(ENDPOINT_STATES).optional() }))
    .query(async ({ ctx, input }) => {
      const { endpoints, totalCount } = await listPartnerEndpoints(ctx.db, ctx.staff.distributorId, {
        ...input,
        pageSize: PARTNER_ENDPOINTS_PAGE_SIZE,
      });
      return {
        endpoints: endpoints.map(visibleEndpointResponse),
        pagination: {
          totalCount,
          page: input.page,
          pageSize: PARTNER_ENDPOINTS_PAGE_SIZE,
          hasNextPage: input.page * PARTNER_ENDPOINTS_PAGE_SIZE < totalCount,
        },
      };
    }),

  /** One endpoint, the distributor's or a partner's, with its owner, health and oldest failed delivery (where a recovery starts). */
  endpoint: anyVisibleEndpoint
    .meta(requires("viewer"))
    .input(endpointInput)
    .query(async ({ ctx }) => ({
      ...visibleEndpointResponse(ctx.endpoint),
      oldestFailedAt: iso(await oldestFailedDeliveryAt(ctx.db, ctx.endpoint.id)),
    })),

  get: distributorWebhooks
    .meta(requires("viewer"))
    .input(endpointInput)
    .query(async ({ ctx, input }) => endpointResponse(await getEndpoint(ctx.db, ctx.owner, "current", input.id))),

  /** The answer carries the distributor's active signing secret (generated when it has none), as the API's does. */
  create: distributorWebhooks
    .meta({ audit: { action: "webhook.create", target: { type: "webhook" } }, ...requires("admin") })
    .input(endpointCreateInput)
    .mutation(async ({ ctx, input }) => {
      const { endpoint, secret } = await createEndpoint(ctx.db, ctx.owner, "current", input);
      return { webhook: endpointResponse(endpoint), secret };
    }),

  update: distributorWebhooks
    .meta({
      audit: {
        action: "webhook.update",
        target: { type: "webhook", key: "id" },
        before: (ctx: StaffContext, input) => getEndpoint(ctx.db, { distributorId: ctx.staff.distributorId }, "current", String(input.id)),
        reload: true,
      },
      ...requires("admin"),
    })
    .input(endpointUpdateInput)
    .mutation(async ({ ctx, input }) => {
      const { id, ...changes } = input;
      return endpointResponse(await updateEndpoint(ctx.db, ctx.owner, "current", id, changes));
    }),

  delete: distributorWebhooks
    .meta({ audit: { action: "webhook.delete", target: { type: "webhook", key: "id" } }, ...requires("admin") })
    .input(endpointInput)
    .mutation(async ({ ctx, input }) => {
      await deleteEndpoint(ctx.db, ctx.owner, "current", input.id);
      return { deleted: true };
    }),

  /** The delivery log of any visible endpoint. */
  deliveries: anyVisibleEndpoint
    .meta(requires("viewer"))
    .input(z.object({ id: endpointIdInput, page: pageInput, status: deliveryStatusSchema.optional() }))
    .query(async ({ ctx, input }) => {
      const { deliveries, totalCount } = await listDeliveries(ctx.db, ctx.endpoint.ownerRef, ctx.endpoint.protocol, input.id, {
        page: input.page,
        pageSize: DELIVERIES_PAGE_SIZE,
        status: input.status,
      });
      return {
        deliveries: deliveries.map(deliveryResponse),
        pagination: {
          totalCount,
          page: input.page,
          pageSize: DELIVERIES_PAGE_SIZE,
          hasNextPage: input.page * DELIVERIES_PAGE_SIZE < totalCount,
        },
      };
    }),

  /** Re-queues one delivered or failed delivery of any visible endpoint (a partner's: on its behalf). */
  requeueDelivery: anyVisibleEndpoint
    .meta({ audit: { action: "webhook.delivery-retry", target: { type: "webhook", key: "id" } }, ...requires("admin") })
    .input(z.object({ id: endpointIdInput, deliveryId: z.string() }))
    .mutation(async ({ ctx, input }) =>
      deliveryResponse(await requeueDelivery(ctx.db, ctx.endpoint.ownerRef, ctx.endpoint.protocol, input.id, input.deliveryId)),
    ),

  /** Re-queues the failed deliveries created in [since, until) of any visible endpoint (docs/webhooks.md). */
  recover: anyVisibleEndpoint
    .meta({ audit: { action: "webhook.recover", target: { type: "webhook", key: "id" } }, ...requires("admin") })
    .input(z.object({ id: endpointIdInput, since: windowBound("since"), until: windowBound("until").optional() }))
    .mutation(async ({ ctx, input }) => ({
      queued: await recoverDeliveries(ctx.db, ctx.endpoint.ownerRef, ctx.endpoint.protocol, input.id, {
        since: input.since,
        until: input.until,
      }),
    })),

  sendTest: distributorWebhooks
    .meta({ audit: { action: "webhook.test", target: { type: "webhook", key: "id" } }, ...requires("admin") })
    .input(z.object({ id: endpointIdInput, eventType: eventTypeSchema.optional() }))
    .mutation(async ({ ctx, input }) => deliveryResponse(await sendTestEvent(ctx.db, ctx.owner, "current", input.id, input.eventType))),

  secrets: distributorWebhooks
    .meta(requires("viewer"))
    .query(async ({ ctx }) => (await listSecrets(ctx.db, ctx.owner)).map((secret) => ({ ...secret, createdAt: iso(secret.createdAt) }))),

  /** A new active secret replacing all others at once (for a leaked secret). Shown once. */
  generateSecret: distributorWebhooks
    .meta({ audit: { action: "webhook-secret.generate", target: { type: "webhook-secret" } }, ...requires("admin") })
    .mutation(({ ctx }) => generateSecret(ctx.db, ctx.owner)),

  /** A new active secret; the previous active one becomes the fallback (receivers on it keep receiving). Shown once. */
  cycleSecret: distributorWebhooks
    .meta({ audit: { action: "webhook-secret.cycle", target: { type: "webhook-secret" } }, ...requires("admin") })
    .mutation(({ ctx }) => cycleSecret(ctx.db, ctx.owner)),

  deactivateSecret: distributorWebhooks
    .meta({ audit: { action: "webhook-secret.deactivate", target: { type: "webhook-secret", key: "secretId" } }, ...requires("admin") })
    .input(z.object({ secretId: uuidInput("Invalid secret ID") }))
    .mutation(async ({ ctx, input }) => {
      await deactivateSecret(ctx.db, ctx.owner, input.secretId);
      return { deactivated: true };
    }),
});
