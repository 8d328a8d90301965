import { z } from "zod";
import { searchDistributorCustomers } from "../../../customers/search";
import { staffCustomerView, staffOwnedCustomer } from "../../../customers/staff-view";
import { customerReport } from "../../../findings/customer-reports";
import { createSupportSignInLink, SUPPORT_SIGN_IN_ACTION } from "../../../portal/support-sign-in";
import { requestClientAddress } from "../../../client-address";
import { config } from "../../../config";
import { badRequest } from "../../../errors";
import { customerDomainListing } from "../../../domains/domains";
import { directoryView } from "../../../directory/connections";
import { deleteMute, listMutes, muteNotices } from "../../../customers/mutes";
import { customerPsaCompany } from "../../../psa/connections";
import { emailField } from "../../schemas";
import { router, staffProcedure } from "../../trpc";
import { iso, pageInput } from "./inputs";

export const CUSTOMER_SEARCH_PAGE_SIZE = 25;
/** The breaches the mute form lists (a customer with more is a rare one; the API takes any). */
const MUTE_BREACH_OPTIONS = 500;
const UNTIL_INVALID = "Until must be a date and time";

const customerInput = z.object({ customerId: z.string().max(100) });

/** One customer of the distributor's partners (docs/admin-ui.md, "A customer"); another distributor's is not found. */
export const customersRouter = router({
  /** The customers of all the distributor's partners, by company name; optionally those matching a search. */
  search: staffProcedure
    .requires("viewer")
    .input(z.object({ search: z.string().trim().max(200).optional(), page: pageInput }))
    .query(async ({ ctx, input }) => {
      const result = await searchDistributorCustomers(ctx.db, ctx.staff.distributorId, { ...input, pageSize: CUSTOMER_SEARCH_PAGE_SIZE });
      return { ...result, customers: result.customers.map((customer) => ({ ...customer, createdAt: iso(customer.createdAt) })) };
    }),

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
        /** What the mute form offers: every breach instance of the customer, by title. */
        muteBreaches: (
          await ctx.db.customerBreach.findMany({
            where: { customerId: view.id },
            select: { id: true, breach: { select: { title: true } } },
            orderBy: [{ breach: { title: "asc" } }, { id: "asc" }],
            take: MUTE_BREACH_OPTIONS,
          })
        ).map((instance) => ({ id: instance.id, title: instance.breach.title })),
        /** The partner's PSA (its provider) and the customer's PSA company (docs/integrations.md). */
        psa: {
          provider:
            (await ctx.db.psaConnection.findUnique({ where: { partnerId: view.partner.id }, select: { provider: true } }))?.provider ??
            null,
          companyId: await customerPsaCompany(ctx.db, view.id),
        },
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

  /** The customer's report as a PDF (docs/customers.md, "Reports"): the executive report of a period, or a prospect's exposure check. */
  report: staffProcedure
    .requires("viewer")
    .input(
      customerInput.extend({
        kind: z.enum(["executive", "prospect"]),
        from: z.string().max(10).optional(),
        to: z.string().max(10).optional(),
      }),
    )
    .query(async ({ ctx, input }) => {
      const { partner } = await staffOwnedCustomer(ctx.db, ctx.staff.distributorId, input.customerId);
      const days = { from: input.from || undefined, to: input.to || undefined };
      for (const day of Object.values(days))
        if (day !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(day)) throw badRequest("Dates are YYYY-MM-DD");
      const report = await customerReport(ctx.db, partner.id, input.customerId, { kind: input.kind, ...days });
      return { filename: report.filename, base64: report.pdf.toString("base64") };
    }),

  /**
   * Mutes a mailbox, a breach, or one mailbox in one breach of the customer (the partner API's
   * `POST .../mutes`, recorded as set by staff); muting what is muted already sets its end.
   */
  mute: staffProcedure
    .requires("agent")
    .meta({ audit: { action: "customer.mute", target: { type: "customer", key: "customerId" } } })
    .input(
      customerInput.extend({
        email: emailField("Email").optional(),
        breachId: z.string().max(100).optional(),
        until: z.iso.datetime({ offset: true, error: UNTIL_INVALID }).optional(),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const { partner } = await staffOwnedCustomer(ctx.db, ctx.staff.distributorId, input.customerId);
      return muteNotices(ctx.db, input.customerId, {
        email: input.email,
        breachId: input.breachId,
        until: input.until ? new Date(input.until) : undefined,
        mutedBy: "staff",
        partnerId: partner.id,
      });
    }),

  /** Ends a mute of the customer at once (the partner API's `DELETE .../mutes/{muteId}`). */
  unmute: staffProcedure
    .requires("agent")
    .meta({ audit: { action: "customer.unmute", target: { type: "customer", key: "customerId" } } })
    .input(customerInput.extend({ muteId: z.string().max(100) }))
    .mutation(async ({ ctx, input }) => {
      const { partner } = await staffOwnedCustomer(ctx.db, ctx.staff.distributorId, input.customerId);
      await deleteMute(ctx.db, input.customerId, input.muteId, partner.id);
      return { unmuted: true };
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
