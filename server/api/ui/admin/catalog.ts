import { z } from "zod";
import {
  createBillingCode,
  deleteBillingCode,
  getBillingCode,
  listBillingCodes,
  setBillingCodeRetired,
  updateBillingCode,
} from "../../../distributors/billing-codes";
import { listPlans } from "../../../distributors/plans";
import { billingCodeInput } from "../../procedures/distributor/billing-code-schema";
import type { StaffContext } from "../../audit";
import { router, staffProcedure } from "../../trpc";
import { pageInput } from "./inputs";

/** The system plans (read-only) and the distributor's billing codes. */
export const plansRouter = router({
  list: staffProcedure.requires("viewer").query(({ ctx }) => listPlans(ctx.db)),
});

const billingCodeId = z.object({ id: z.number().int() });

export const billingCodesRouter = router({
  list: staffProcedure
    .requires("viewer")
    .input(z.object({ page: pageInput, pageSize: z.number().int().min(1).max(100).default(50) }))
    .query(({ ctx, input }) => listBillingCodes(ctx.db, ctx.staff.distributorId, { page: input.page, perPage: input.pageSize })),

  create: staffProcedure
    .requires("billing")
    .meta({ audit: { action: "billing-code.create", target: { type: "billing-code" } } })
    .input(billingCodeInput)
    .mutation(({ ctx, input }) => createBillingCode(ctx.db, { distributorId: ctx.staff.distributorId, ...input })),

  /** Code, price or currency; a new code text follows to the partners that use it. */
  update: staffProcedure
    .requires("billing")
    .meta({
      audit: {
        action: "billing-code.update",
        target: { type: "billing-code", key: "id" },
        before: (ctx: StaffContext, input) => getBillingCode(ctx.db, ctx.staff.distributorId, Number(input.id)),
        reload: true,
      },
    })
    .input(billingCodeInput.partial().extend(billingCodeId.shape))
    .mutation(({ ctx, input: { id, ...changes } }) => updateBillingCode(ctx.db, ctx.staff.distributorId, id, changes)),

  setRetired: staffProcedure
    .requires("billing")
    .meta({ audit: { action: "billing-code.set-retired", target: { type: "billing-code", key: "id" } } })
    .input(billingCodeId.extend({ retired: z.boolean() }))
    .mutation(({ ctx, input }) => setBillingCodeRetired(ctx.db, ctx.staff.distributorId, input.id, input.retired)),

  /** Only a code no partner uses (409 otherwise: retire it). */
  delete: staffProcedure
    .requires("billing")
    .meta({
      audit: {
        action: "billing-code.delete",
        target: { type: "billing-code", key: "id" },
        before: (ctx: StaffContext, input) => getBillingCode(ctx.db, ctx.staff.distributorId, Number(input.id)),
      },
    })
    .input(billingCodeId)
    .mutation(async ({ ctx, input }) => {
      await deleteBillingCode(ctx.db, ctx.staff.distributorId, input.id);
      return { deleted: true as const };
    }),
});
