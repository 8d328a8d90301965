import { categories as breachCategories } from "./procedures/breach/categories";
import { check as checkBreach } from "./procedures/breach/check";
import { get as getBreach } from "./procedures/breach/get";
import { retrieve as retrieveBreaches } from "./procedures/breach/retrieve";
import { status as setBreachStatus } from "./procedures/breach/status";
import { listBreaches as listCustomerBreaches } from "./procedures/customer/list-breaches";
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
  breach: router({
    retrieve: retrieveBreaches,
    check: checkBreach,
    status: setBreachStatus,
    get: getBreach,
    categories: breachCategories,
  }),
  customer: router({
    listBreaches: listCustomerBreaches,
  }),
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
