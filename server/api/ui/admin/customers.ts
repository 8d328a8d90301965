import { z } from "zod";
import { staffCustomerView } from "../../../customers/staff-view";
import { createSupportSignInLink, SUPPORT_SIGN_IN_ACTION } from "../../../portal/support-sign-in";
import { requestClientAddress } from "../../../client-address";
import { config } from "../../../config";
import { customerDomainListing } from "../../../domains/domains";
import { directoryView } from "../../../directory/connections";
import { listMutes } from "../../../customers/mutes";
import { router, staffProcedure } from "../../trpc";
import { iso } from "./inputs";

const customerInput = z.object({ customerId: z.string().max(100) });

/** One customer of the distributor's partners (docs/admin-ui.md, "A customer"); another distributor's is not found. */
export const customersRouter = router({
  get: staffProcedure
    .requires("viewer")
    .input(customerInput)
    .query(async ({ ctx, input }) => {
      const view = await staffCustomerView(ctx.db, ctx.staff.distributorId, input.customerId);
      const domainStatus = new Map((await customerDomainListing(ctx.db, view.id)).map((domain) => [domain.domain, domain.status]));
      const connection = await ctx.db.directoryConnection.findUnique({ where: { customerId: view.id }, select: { id: true } });
      return {
        ...view,
        /** The customer's directory connection (docs/directory.md): state, last error, counts; never its secret. */
        directory: connection ? await directoryView(ctx.db, connection.id) : null,
        /** The mutes in force (docs/notifications.md, "Quiet by design"). */
        mutes: await listMutes(ctx.db, view.id),
        assets: view.assets.map((asset) =>
          asset.kind === "domain" ? { ...asset, verification: domainStatus.get(asset.value) ?? null } : asset,
        ),
        createdAt: iso(view.createdAt),
        firstScannedAt: iso(view.firstScannedAt),
        lastScannedAt: iso(view.lastScannedAt),
        breaches: {
          ...view.breaches,
          newest: view.breaches.newest.map((breach) => ({ ...breach, breachDate: iso(breach.breachDate).slice(0, 10) })),
        },
        events: { ...view.events, newest: view.events.newest.map((event) => ({ ...event, createdAt: iso(event.createdAt) })) },
        emails: {
          ...view.emails,
          newest: view.emails.newest.map((email) => ({ ...email, createdAt: iso(email.createdAt), sentAt: iso(email.sentAt) })),
        },
        audit: view.audit.map((entry) => ({ ...entry, createdAt: iso(entry.createdAt) })),
      };
    }),

  /** A one-time portal sign-in link to hand over for support; audited (who, when, which customer). */
  signInLink: staffProcedure
    .requires("agent")
    .meta({ audit: { action: SUPPORT_SIGN_IN_ACTION, target: { type: "customer", key: "customerId" }, self: true } })
    .input(customerInput)
    .mutation(({ ctx, input }) =>
      createSupportSignInLink(ctx.db, ctx.staff, input.customerId, requestClientAddress(ctx.headers, config.trustProxy())),
    ),
});
