import { getPlan } from "./procedures/distributor/get-plan";
import { listPlans as listDistributorPlans } from "./procedures/distributor/list-plans";
import { health } from "./procedures/health";
import { listPlans as listPartnerPlans } from "./procedures/partner/list-plans";
import { createCallerFactory, router } from "./trpc";

/** Every procedure; those with `openapi` meta are also REST endpoints (server/api/rest). */
export const appRouter = router({
  health,
  distributor: router({
    listPlans: listDistributorPlans,
    getPlan,
  }),
  partner: router({
    listPlans: listPartnerPlans,
  }),
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
