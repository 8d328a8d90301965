import { downgrade } from "./procedures/customer/downgrade";
import { getAssets } from "./procedures/customer/get-assets";
import { getInfo } from "./procedures/customer/get-info";
import { getThreatScore } from "./procedures/customer/get-threat-score";
import { offboard } from "./procedures/customer/offboard";
import { onboard } from "./procedures/customer/onboard";
import { reactivate } from "./procedures/customer/reactivate";
import { updateAssets } from "./procedures/customer/update-assets";
import { updateInfo } from "./procedures/customer/update-info";
import { upgrade } from "./procedures/customer/upgrade";
import { createPartner } from "./procedures/distributor/create-partner";
import { createPartnerApiKey } from "./procedures/distributor/create-partner-api-key";
import { getBillingCode } from "./procedures/distributor/get-billing-code";
import { getPartner } from "./procedures/distributor/get-partner";
import { getPlan } from "./procedures/distributor/get-plan";
import { listBillingCodes } from "./procedures/distributor/list-billing-codes";
import { listPartnerApiKeys } from "./procedures/distributor/list-partner-api-keys";
import { listPlans as listDistributorPlans } from "./procedures/distributor/list-plans";
import { revokePartnerApiKey } from "./procedures/distributor/revoke-partner-api-key";
import { updatePartner } from "./procedures/distributor/update-partner";
import { health } from "./procedures/health";
import { getAnalytics } from "./procedures/partner/get-analytics";
import { listCustomers } from "./procedures/partner/list-customers";
import { listPlans as listPartnerPlans } from "./procedures/partner/list-plans";
import { createCallerFactory, router } from "./trpc";

/** Every procedure; those with `openapi` meta are also REST endpoints (server/api/rest). */
export const appRouter = router({
  health,
  customer: router({
    onboard,
    offboard,
    reactivate,
    upgrade,
    downgrade,
    getInfo,
    updateInfo,
    getAssets,
    updateAssets,
    getThreatScore,
  }),
  distributor: router({
    listPlans: listDistributorPlans,
    getPlan,
    createPartner,
    getPartner,
    updatePartner,
    createPartnerApiKey,
    listPartnerApiKeys,
    revokePartnerApiKey,
    listBillingCodes,
    getBillingCode,
  }),
  partner: router({
    listPlans: listPartnerPlans,
    listCustomers,
    getAnalytics,
  }),
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
