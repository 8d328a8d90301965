import { z } from "zod";
import {
  createBillingCode,
  deleteBillingCode,
  listBillingCodes,
  setBillingCodeRetired,
  updateBillingCode,
} from "../../../distributors/billing-codes";
import { listPlans } from "../../../distributors/plans";
import { billingCodeInput } from "../../procedures/distributor/billing-code-schema";
import { router, staffProcedure } from "../../trpc";
import { pageInput } from "./inputs";

/** The system plans (read-only) and the distributor's billing codes. */
export const plansRouter = router({
  list: staffProcedure.query(({ ctx }) => listPlans(ctx.db)),
});

const billingCodeId = z.object({ id: z.number().int() });

export const billingCodesRouter = router({
  list: staffProcedure
    .input(z.object({ page: pageInput, pageSize: z.number().int().min(1).max(100).default(50) }))
    .query(({ ctx, input }) => listBillingCodes(ctx.db, ctx.staff.distributorId, { page: input.page, perPage: input.pageSize })),

  create: staffProcedure
    .input(billingCodeInput)
    .mutation(({ ctx, input }) => createBillingCode(ctx.db, { distributorId: ctx.staff.distributorId, ...input })),

  /** Code, price or currency; a new code text follows to the partners that use it. */
  update: staffProcedure
    .input(billingCodeInput.partial().extend(billingCodeId.shape))
    .mutation(({ ctx, input: { id, ...changes } }) => updateBillingCode(ctx.db, ctx.staff.distributorId, id, changes)),

  setRetired: staffProcedure
    .input(billingCodeId.extend({ retired: z.boolean() }))
    .mutation(({ ctx, input }) => setBillingCodeRetired(ctx.db, ctx.staff.distributorId, input.id, input.retired)),

  /** Only a code no partner uses (409 otherwise: retire it). */
  delete: staffProcedure.input(billingCodeId).mutation(async ({ ctx, input }) => {
    await deleteBillingCode(ctx.db, ctx.staff.distributorId, input.id);
    return { deleted: true as const };
  }),
});
