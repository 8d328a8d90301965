import { z } from "zod";
import { attestDomain, distributorDomainPolicy, recentCustomerDomains, withheldListings } from "../../../domains/staff";
import { router, staffProcedure } from "../../trpc";
import { iso } from "./inputs";

/**
 * The admin UI's domain page (docs/admin-ui.md, "Domains"): the distributor's domain policy
 * (read-only: an operator sets it with the admin CLI, since `trusted` widens what partners see),
 * the domains its partners' customers added in the last 30 days and the addresses they listed
 * at unverified domains past their lookup budget (the abuse view), and staff attestation. Scoped to the staff member's distributor.
 */
export const domainsRouter = router({
  overview: staffProcedure
    .requires("viewer")
    .input(z.object({ partnerId: z.uuid().optional() }))
    .query(async ({ ctx, input }) => {
      const [policy, domains, withheld] = await Promise.all([
        distributorDomainPolicy(ctx.db, ctx.staff.distributorId),
        recentCustomerDomains(ctx.db, ctx.staff.distributorId, input),
        withheldListings(ctx.db, ctx.staff.distributorId, input),
      ]);
      return {
        policy,
        domains: domains.map((row) => ({ ...row, addedAt: iso(row.addedAt)!, verifiedAt: iso(row.verifiedAt) })),
        withheldListings: withheld.map((row) => ({ ...row, lastWithheldAt: iso(row.lastWithheldAt)! })),
      };
    }),

  attest: staffProcedure
    .requires("agent")
    .meta({ audit: { action: "domain.attest", target: { type: "customer", key: "customerId" } } })
    .input(z.object({ customerId: z.string(), domain: z.string().max(300), note: z.string().max(2000) }))
    .mutation(({ ctx, input }) => attestDomain(ctx.db, { distributorId: ctx.staff.distributorId, staffId: ctx.staff.id }, input)),
});
