import { WEBHOOK_BASE_PATHS } from "../../../webhooks/api-paths";
import type { Protocol } from "../../../webhooks/endpoints";
import type { WebhookOwner } from "../../../webhooks/owner";
import { distributorProcedure, partnerProcedure } from "../../trpc";

/**
 * The three webhook surfaces (their paths: server/webhooks/api-paths.ts): the partner's current
 * one, the distributor's (same shapes) and the partner's earlier one. An operation that works the same on several surfaces is one
 * procedure file exporting a factory that takes the surface, so the paths share their code.
 * Each surface's builder authenticates its caller (and audits its mutations) as the partner or
 * distributor builder does, and puts the owner of the webhooks in ctx.
 */
function ownerProcedure(auth: "partner" | "distributor") {
  if (auth === "partner") {
    return partnerProcedure.use(({ ctx, next }) => next({ ctx: { owner: { partnerId: ctx.caller.partnerId } as WebhookOwner } }));
  }
  return distributorProcedure.use(({ ctx, next }) => next({ ctx: { owner: { distributorId: ctx.caller.distributorId } as WebhookOwner } }));
}

export interface WebhookSurface {
  protocol: Protocol;
  basePath: `/${string}`;
  tags: string[];
  procedure: ReturnType<typeof ownerProcedure>;
}

export const partnerSurface: WebhookSurface = {
  protocol: "current",
  basePath: WEBHOOK_BASE_PATHS.partner,
  tags: ["Partner: webhooks"],
  procedure: ownerProcedure("partner"),
};

export const distributorSurface: WebhookSurface = {
  protocol: "current",
  basePath: WEBHOOK_BASE_PATHS.distributor,
  tags: ["Distributor: webhooks"],
  procedure: ownerProcedure("distributor"),
};

export const legacySurface: WebhookSurface = {
  protocol: "legacy",
  basePath: WEBHOOK_BASE_PATHS.legacy,
  tags: ["Partner: webhooks (earlier protocol)"],
  procedure: ownerProcedure("partner"),
};
