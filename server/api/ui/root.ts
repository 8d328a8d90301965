import { createCallerFactory, router } from "../trpc";
import { accountRouter } from "./admin/account";
import { auditRouter } from "./admin/audit";
import { brandRouter } from "./admin/brand";
import { breachDataRouter } from "./admin/breach-data";
import { billingCodesRouter, plansRouter } from "./admin/catalog";
import { customersRouter } from "./admin/customers";
import { domainsRouter } from "./admin/domains";
import { mailRouter } from "./admin/mail";
import { overviewRouter } from "./admin/overview";
import { partnersRouter } from "./admin/partners";
import { securityRouter } from "./admin/security";
import { staffRouter } from "./admin/staff";
import { webhooksRouter } from "./admin/webhooks";
import { me } from "./me";
import { portalRouter } from "./portal/router";
import { channelsRouter } from "./admin/channels";
import { psaRouter } from "./admin/psa";
import { staffInvitationRouter } from "./staff-invitation";
import { staffPasswordRouter } from "./staff-password";
import { unsubscribe } from "./unsubscribe";

/**
 * The procedures of the UIs (admin UI, customer portal), served by tRPC at /api/trpc and called
 * in-process by server components. Separate from appRouter so no UI procedure becomes a REST path.
 */
export const uiRouter = router({
  admin: router({
    me,
    overview: overviewRouter,
    partners: partnersRouter,
    channels: channelsRouter,
    psa: psaRouter,
    brand: brandRouter,
    customers: customersRouter,
    plans: plansRouter,
    billingCodes: billingCodesRouter,
    webhooks: webhooksRouter,
    mail: mailRouter,
    account: router(accountRouter),
    domains: domainsRouter,
    staff: staffRouter,
    security: securityRouter,
    audit: auditRouter,
    breachData: breachDataRouter,
  }),
  staffPassword: router(staffPasswordRouter),
  staffInvitation: router(staffInvitationRouter),
  portal: portalRouter,
  notifications: router({ unsubscribe }),
});

export type UiRouter = typeof uiRouter;
export const createUiCaller = createCallerFactory(uiRouter);
