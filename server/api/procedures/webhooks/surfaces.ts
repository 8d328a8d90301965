import { authenticateDistributor, authenticatePartner } from "../../../auth/api-keys";
import type { Protocol } from "../../../webhooks/endpoints";
import type { WebhookOwner } from "../../../webhooks/owner";
import { publicProcedure } from "../../trpc";

/**
 * The three webhook surfaces: the partner's current one (/api/v1/integrations/webhooks), the
 * distributor's (/api/v1/distributors/webhooks, same shapes) and the partner's earlier one
 * (/api/integrations/webhooks). An operation that works the same on several surfaces is one
 * procedure file exporting a factory that takes the surface, so the paths share their code.
 * Each surface's builder authenticates its caller and puts the owner of the webhooks in ctx.
 */
function ownerProcedure(auth: "partner" | "distributor") {
  return publicProcedure.meta({ auth }).use(async ({ ctx, next }) => {
    const owner: WebhookOwner =
      auth === "partner"
        ? { partnerId: (await authenticatePartner(ctx.db, ctx.headers, { allowDistributorKey: false })).partnerId }
        : { distributorId: (await authenticateDistributor(ctx.db, ctx.headers)).distributorId };
    return next({ ctx: { ...ctx, owner } });
  });
}

export interface WebhookSurface {
  protocol: Protocol;
  basePath: `/${string}`;
  tags: string[];
  procedure: ReturnType<typeof ownerProcedure>;
}

export const partnerSurface: WebhookSurface = {
  protocol: "current",
  basePath: "/api/v1/integrations/webhooks",
  tags: ["Partner: webhooks"],
  procedure: ownerProcedure("partner"),
};

export const distributorSurface: WebhookSurface = {
  protocol: "current",
  basePath: "/api/v1/distributors/webhooks",
  tags: ["Distributor: webhooks"],
  procedure: ownerProcedure("distributor"),
};

export const legacySurface: WebhookSurface = {
  protocol: "legacy",
  basePath: "/api/integrations/webhooks",
  tags: ["Partner: webhooks (earlier protocol)"],
  procedure: ownerProcedure("partner"),
};
