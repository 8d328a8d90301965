import { initTRPC } from "@trpc/server";
import { authenticateDistributor, authenticatePartner } from "../auth/api-keys";
import type { Context } from "./context";
import type { AppMeta } from "./meta";

const t = initTRPC.context<Context>().meta<AppMeta>().create();

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

/** No credentials (health). */
export const publicProcedure = t.procedure.meta({ auth: "none" });

/** Partner API: SW-PARTNER-ID + a key of that partner. A distributor key is refused. */
export const partnerProcedure = t.procedure.meta({ auth: "partner" }).use(async ({ ctx, next }) => {
  const caller = await authenticatePartner(ctx.db, ctx.headers, { allowDistributorKey: false });
  return next({ ctx: { ...ctx, caller } });
});

/**
 * Partner API endpoints that a distributor may call on behalf of one of its own partners
 * (offboard, upgrade, downgrade, analytics, list customers; SPEC 5).
 */
export const partnerOrDistributorProcedure = t.procedure
  .meta({ auth: "partnerOrDistributor" })
  .use(async ({ ctx, next }) => {
    const caller = await authenticatePartner(ctx.db, ctx.headers, { allowDistributorKey: true });
    return next({ ctx: { ...ctx, caller } });
  });

/** Distributor API: SW-DISTRIBUTOR-ID + a key of that distributor. */
export const distributorProcedure = t.procedure.meta({ auth: "distributor" }).use(async ({ ctx, next }) => {
  const caller = await authenticateDistributor(ctx.db, ctx.headers);
  return next({ ctx: { ...ctx, caller } });
});
