import { z } from "zod";
import { createBillingCode, listBillingCodes } from "../../../distributors/billing-codes";
import { listPlans } from "../../../distributors/plans";
import { billingCodeInput } from "../../procedures/distributor/billing-code-schema";
import { router, staffProcedure } from "../../trpc";
import { pageInput } from "./inputs";

/** The system plans (read-only) and the distributor's billing codes. */
export const plansRouter = router({
  list: staffProcedure.query(({ ctx }) => listPlans(ctx.db)),
});

export const billingCodesRouter = router({
  list: staffProcedure
    .input(z.object({ page: pageInput, pageSize: z.number().int().min(1).max(100).default(50) }))
    .query(({ ctx, input }) => listBillingCodes(ctx.db, ctx.staff.distributorId, { page: input.page, perPage: input.pageSize })),

  create: staffProcedure
    .input(billingCodeInput)
    .mutation(({ ctx, input }) => createBillingCode(ctx.db, { distributorId: ctx.staff.distributorId, ...input })),
});
