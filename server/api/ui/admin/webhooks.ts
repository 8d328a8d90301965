import { z } from "zod";
import { listDeliveries, requeueDelivery, sendTestEvent } from "../../../webhooks/deliveries";
import { createEndpoint, deleteEndpoint, getEndpoint, listEndpoints, updateEndpoint } from "../../../webhooks/endpoints";
import type { WebhookOwner } from "../../../webhooks/owner";
import { cycleSecret, deactivateSecret, generateSecret, listSecrets } from "../../../webhooks/secrets";
import { uuidInput } from "../../schemas";
import {
  deliveryResponse,
  deliveryStatusSchema,
  endpointCreateInput,
  endpointIdInput,
  endpointResponse,
  endpointUpdateInput,
  eventTypeSchema,
} from "../../procedures/webhooks/schemas";
import { router, staffProcedure } from "../../trpc";
import { iso, pageInput } from "./inputs";

export const DELIVERIES_PAGE_SIZE = 20;

/** The distributor's webhooks: its current-protocol endpoints and signing secrets (as on the distributor API). */
const distributorWebhooks = staffProcedure.use(({ ctx, next }) =>
  next({ ctx: { owner: { distributorId: ctx.staff.distributorId } satisfies WebhookOwner } }),
);

const endpointInput = z.object({ id: endpointIdInput });

export const webhooksRouter = router({
  list: distributorWebhooks.query(async ({ ctx }) => (await listEndpoints(ctx.db, ctx.owner, "current")).map(endpointResponse)),

  get: distributorWebhooks.input(endpointInput).query(async ({ ctx, input }) => endpointResponse(await getEndpoint(ctx.db, ctx.owner, "current", input.id))),

  /** The answer carries the distributor's active signing secret (generated when it has none), as the API's does. */
  create: distributorWebhooks.input(endpointCreateInput).mutation(async ({ ctx, input }) => {
    const { endpoint, secret } = await createEndpoint(ctx.db, ctx.owner, "current", input);
    return { webhook: endpointResponse(endpoint), secret };
  }),

  update: distributorWebhooks.input(endpointUpdateInput).mutation(async ({ ctx, input }) => {
    const { id, ...changes } = input;
    return endpointResponse(await updateEndpoint(ctx.db, ctx.owner, "current", id, changes));
  }),

  delete: distributorWebhooks.input(endpointInput).mutation(async ({ ctx, input }) => {
    await deleteEndpoint(ctx.db, ctx.owner, "current", input.id);
    return { deleted: true };
  }),

  deliveries: distributorWebhooks
    .input(z.object({ id: endpointIdInput, page: pageInput, status: deliveryStatusSchema.optional() }))
    .query(async ({ ctx, input }) => {
      const { deliveries, totalCount } = await listDeliveries(ctx.db, ctx.owner, "current", input.id, {
        page: input.page,
        pageSize: DELIVERIES_PAGE_SIZE,
        status: input.status,
      });
      return {
        deliveries: deliveries.map(deliveryResponse),
        pagination: { totalCount, page: input.page, pageSize: DELIVERIES_PAGE_SIZE, hasNextPage: input.page * DELIVERIES_PAGE_SIZE < totalCount },
      };
    }),

  requeueDelivery: distributorWebhooks
    .input(z.object({ id: endpointIdInput, deliveryId: z.string() }))
    .mutation(async ({ ctx, input }) => deliveryResponse(await requeueDelivery(ctx.db, ctx.owner, "current", input.id, input.deliveryId))),

  sendTest: distributorWebhooks
    .input(z.object({ id: endpointIdInput, eventType: eventTypeSchema.optional() }))
    .mutation(async ({ ctx, input }) => deliveryResponse(await sendTestEvent(ctx.db, ctx.owner, "current", input.id, input.eventType))),

  secrets: distributorWebhooks.query(async ({ ctx }) =>
    (await listSecrets(ctx.db, ctx.owner)).map((secret) => ({ ...secret, createdAt: iso(secret.createdAt) })),
  ),

  /** A new active secret replacing all others at once (for a leaked secret). Shown once. */
  generateSecret: distributorWebhooks.mutation(({ ctx }) => generateSecret(ctx.db, ctx.owner)),

  /** A new active secret; the previous active one stays valid as the fallback. Shown once. */
  cycleSecret: distributorWebhooks.mutation(({ ctx }) => cycleSecret(ctx.db, ctx.owner)),

  deactivateSecret: distributorWebhooks.input(z.object({ secretId: uuidInput("Invalid secret ID") })).mutation(async ({ ctx, input }) => {
    await deactivateSecret(ctx.db, ctx.owner, input.secretId);
    return { deactivated: true };
  }),
});
