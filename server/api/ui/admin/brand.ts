import { z } from "zod";
import { auditedBrand, getBrandSettings, putBrandSettings } from "../../../brand/settings";
import { requireOwnPartner } from "../../../distributors/partners";
import { distributorBrandInput, partnerBrandInput } from "../../procedures/brand/fields";
import { partnerIdPath } from "../../procedures/distributor/partner-fields";
import type { StaffContext } from "../../audit";
import { router, staffProcedure } from "../../trpc";

const partnerInput = z.object({ partnerId: partnerIdPath });

/**
 * The admin UI's brands (docs/brand.md): the distributor's default and each of its partners'
 * own, with the REST API's fields and checks. Another distributor's partner is not found.
 */
export const brandRouter = router({
  distributor: staffProcedure.requires("viewer").query(({ ctx }) => getBrandSettings(ctx.db, { distributorId: ctx.staff.distributorId })),

  putDistributor: staffProcedure
    .requires("admin")
    .meta({
      audit: {
        action: "distributor.brand.update",
        target: { type: "distributor" },
        before: async (ctx: StaffContext) => auditedBrand(await getBrandSettings(ctx.db, { distributorId: ctx.staff.distributorId })),
        after: auditedBrand,
      },
    })
    .input(distributorBrandInput)
    .mutation(({ ctx, input }) => putBrandSettings(ctx.db, { distributorId: ctx.staff.distributorId }, input)),

  partner: staffProcedure
    .requires("viewer")
    .input(partnerInput)
    .query(async ({ ctx, input }) => {
      await requireOwnPartner(ctx.db, ctx.staff.distributorId, input.partnerId);
      return getBrandSettings(ctx.db, { partnerId: input.partnerId });
    }),

  putPartner: staffProcedure
    .requires("admin")
    .meta({
      audit: {
        action: "partner.brand.update",
        target: { type: "partner", key: "partnerId" },
        before: async (ctx: StaffContext, input) => auditedBrand(await getBrandSettings(ctx.db, { partnerId: String(input.partnerId) })),
        after: auditedBrand,
      },
    })
    .input(partnerBrandInput.extend({ partnerId: partnerIdPath }))
    .mutation(async ({ ctx, input }) => {
      const { partnerId, ...brand } = input;
      await requireOwnPartner(ctx.db, ctx.staff.distributorId, partnerId);
      return putBrandSettings(ctx.db, { partnerId }, brand);
    }),
});
