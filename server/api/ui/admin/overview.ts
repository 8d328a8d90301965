import { z } from "zod";
import { getDistributorAnalytics } from "../../../customers/analytics";
import { billingMonthOf, getBillingOverview, BILLING_MONTH_PATTERN, INVALID_BILLING_MONTH } from "../../../distributors/billing";
import { router, staffProcedure } from "../../trpc";
import { iso } from "./inputs";

export const monthInput = z.string().regex(BILLING_MONTH_PATTERN, { error: INVALID_BILLING_MONTH });

/** The overview page's figures (across all the distributor's partners) and the monthly billing overview. */
export const overviewRouter = router({
  analytics: staffProcedure.requires("viewer").query(({ ctx }) => getDistributorAnalytics(ctx.db, ctx.staff.distributorId)),

  /** The month's billing overview; the current month (UTC) when none is given. */
  billing: staffProcedure
    .requires("viewer")
    .input(z.object({ month: monthInput.optional() }))
    .query(async ({ ctx, input }) => {
      const overview = await getBillingOverview(ctx.db, ctx.staff.distributorId, input.month ?? billingMonthOf(new Date()));
      return { ...overview, from: iso(overview.from), to: iso(overview.to) };
    }),
});
