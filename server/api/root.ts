import { categories as breachCategories } from "./procedures/breach/categories";
import { check as checkBreach } from "./procedures/breach/check";
import { get as getBreach } from "./procedures/breach/get";
import { range as breachRange } from "./procedures/breach/range";
import { retrieve as retrieveBreaches } from "./procedures/breach/retrieve";
import { status as setBreachStatus } from "./procedures/breach/status";
import { listBreaches as listCustomerBreaches } from "./procedures/customer/list-breaches";
import { listStealerLogs } from "./procedures/customer/list-stealer-logs";
import { createMagicLink } from "./procedures/customer/create-magic-link";
import { downgrade } from "./procedures/customer/downgrade";
import { getAssets } from "./procedures/customer/get-assets";
import { listDomains } from "./procedures/customer/list-domains";
import { connect as connectDirectory } from "./procedures/directory/connect";
import { disconnect as disconnectDirectory } from "./procedures/directory/disconnect";
import { get as getDirectory } from "./procedures/directory/get";
import { sync as syncDirectory } from "./procedures/directory/sync";
import { create as createMute } from "./procedures/mutes/create";
import { remove as deleteMute } from "./procedures/mutes/delete";
import { list as listMutes } from "./procedures/mutes/list";
import { verifyDomain } from "./procedures/customer/verify-domain";
import { getInfo } from "./procedures/customer/get-info";
import { getReport } from "./procedures/customer/get-report";
import { getThreatScore } from "./procedures/customer/get-threat-score";
import { offboard } from "./procedures/customer/offboard";
import { onboard } from "./procedures/customer/onboard";
import { reactivate } from "./procedures/customer/reactivate";
import { updateAssets } from "./procedures/customer/update-assets";
import { updateInfo } from "./procedures/customer/update-info";
import { upgrade } from "./procedures/customer/upgrade";
import { createPartner } from "./procedures/distributor/create-partner";
import { createPartnerApiKey } from "./procedures/distributor/create-partner-api-key";
import { exportAudit } from "./procedures/distributor/export-audit";
import { getBillingCode } from "./procedures/distributor/get-billing-code";
import { getPartner } from "./procedures/distributor/get-partner";
import { getPlan } from "./procedures/distributor/get-plan";
import { listBillingCodes } from "./procedures/distributor/list-billing-codes";
import { listPartnerApiKeys } from "./procedures/distributor/list-partner-api-keys";
import { listPlans as listDistributorPlans } from "./procedures/distributor/list-plans";
import { revokePartnerApiKey } from "./procedures/distributor/revoke-partner-api-key";
import { updatePartner } from "./procedures/distributor/update-partner";
import { health } from "./procedures/health";
import { connect as connectPsa } from "./procedures/psa/connect";
import { disconnect as disconnectPsa } from "./procedures/psa/disconnect";
import { get as getPsa } from "./procedures/psa/get";
import { mapCustomer as mapCustomerToPsa } from "./procedures/psa/map-customer";
import { test as testPsa } from "./procedures/psa/test";
import { getAnalytics } from "./procedures/partner/get-analytics";
import { getDistributorBrand } from "./procedures/brand/get-distributor-brand";
import { getPartnerBrand } from "./procedures/brand/get-partner-brand";
import { putDistributorBrand } from "./procedures/brand/put-distributor-brand";
import { putPartnerBrand } from "./procedures/brand/put-partner-brand";
import { listCustomers } from "./procedures/partner/list-customers";
import { listPlans as listPartnerPlans } from "./procedures/partner/list-plans";
import { createEndpoint } from "./procedures/webhooks/create-endpoint";
import { cycleSecret } from "./procedures/webhooks/cycle-secret";
import { deactivateSecret } from "./procedures/webhooks/deactivate-secret";
import { deleteEndpoint } from "./procedures/webhooks/delete-endpoint";
import { generateSecret } from "./procedures/webhooks/generate-secret";
import { getEndpoint } from "./procedures/webhooks/get-endpoint";
import { createLegacyEndpoint } from "./procedures/webhooks/legacy/create-endpoint";
import { getLegacyEndpoint } from "./procedures/webhooks/legacy/get-endpoint";
import { listLegacyEndpoints } from "./procedures/webhooks/legacy/list-endpoints";
import { updateLegacyEndpoint } from "./procedures/webhooks/legacy/update-endpoint";
import { listDeliveries } from "./procedures/webhooks/list-deliveries";
import { listEndpoints } from "./procedures/webhooks/list-endpoints";
import { listSecrets } from "./procedures/webhooks/list-secrets";
import { recoverDeliveries } from "./procedures/webhooks/recover-deliveries";
import { retryDelivery } from "./procedures/webhooks/retry-delivery";
import { sendTest } from "./procedures/webhooks/send-test";
import { distributorSurface, legacySurface, partnerSurface, type WebhookSurface } from "./procedures/webhooks/surfaces";
import { updateEndpoint } from "./procedures/webhooks/update-endpoint";
import { create as createChannel } from "./procedures/channels/create";
import { remove as deleteChannel } from "./procedures/channels/delete";
import { get as getChannel } from "./procedures/channels/get";
import { list as listChannels } from "./procedures/channels/list";
import { sendTest as sendChannelTest } from "./procedures/channels/send-test";
import { channelSurface } from "./procedures/channels/surface";
import { update as updateChannel } from "./procedures/channels/update";
import { router } from "./trpc";

/** Deleting an endpoint, its delivery log, retry and recover: the same operations on every webhook surface. */
function deliveryLogProcedures(surface: WebhookSurface) {
  return {
    listDeliveries: listDeliveries(surface),
    retryDelivery: retryDelivery(surface),
    recoverDeliveries: recoverDeliveries(surface),
    sendTest: sendTest(surface),
    delete: deleteEndpoint(surface),
  };
}

/** The webhook operations of a current-protocol surface (partner or distributor). */
function currentWebhookRouter(surface: WebhookSurface) {
  return router({
    list: listEndpoints(surface),
    create: createEndpoint(surface),
    get: getEndpoint(surface),
    update: updateEndpoint(surface),
    listSecrets: listSecrets(surface),
    generateSecret: generateSecret(surface),
    cycleSecret: cycleSecret(surface),
    deactivateSecret: deactivateSecret(surface),
    ...deliveryLogProcedures(surface),
  });
}

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
    getReport,
    listBreaches: listCustomerBreaches,
    listStealerLogs,
    createMagicLink,
    listDomains,
    verifyDomain,
  }),
  directory: router({
    connect: connectDirectory,
    get: getDirectory,
    sync: syncDirectory,
    disconnect: disconnectDirectory,
  }),
  mutes: router({
    create: createMute,
    list: listMutes,
    delete: deleteMute,
  }),
  psa: router({
    connect: connectPsa,
    get: getPsa,
    disconnect: disconnectPsa,
    test: testPsa,
    mapCustomer: mapCustomerToPsa,
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
    exportAudit,
    getBrand: getDistributorBrand,
    putBrand: putDistributorBrand,
  }),
  partner: router({
    listPlans: listPartnerPlans,
    listCustomers,
    getAnalytics,
    getBrand: getPartnerBrand,
    putBrand: putPartnerBrand,
  }),
  channels: router({
    list: listChannels,
    create: createChannel,
    get: getChannel,
    update: updateChannel,
    delete: deleteChannel,
    sendTest: sendChannelTest,
    listDeliveries: listDeliveries(channelSurface),
    retryDelivery: retryDelivery(channelSurface),
    recoverDeliveries: recoverDeliveries(channelSurface),
  }),
  webhooks: router({
    partner: currentWebhookRouter(partnerSurface),
    distributor: currentWebhookRouter(distributorSurface),
    legacy: router({
      list: listLegacyEndpoints,
      create: createLegacyEndpoint,
      get: getLegacyEndpoint,
      update: updateLegacyEndpoint,
      ...deliveryLogProcedures(legacySurface),
    }),
  }),
  breach: router({
    retrieve: retrieveBreaches,
    check: checkBreach,
    range: breachRange,
    status: setBreachStatus,
    get: getBreach,
    categories: breachCategories,
  }),
});

export type AppRouter = typeof appRouter;
