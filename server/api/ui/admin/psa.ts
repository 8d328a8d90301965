import { z } from "zod";
import { AppError } from "../../../errors";
import { requireOwnPartner } from "../../../distributors/partners";
import { getPsaConnection, type PsaView } from "../../../psa/connections";
import { partnerIdPath } from "../../procedures/distributor/partner-fields";
import { router, staffProcedure } from "../../trpc";

/**
 * A partner's PSA connection on its admin page (docs/integrations.md), read-only: the partner
 * connects it through its API. Shows whether the PSA refused the credentials, and why.
 */
export const psaRouter = router({
  get: staffProcedure
    .requires("viewer")
    .input(z.object({ partnerId: partnerIdPath }))
    .query(async ({ ctx, input }): Promise<Omit<PsaView, "settings"> | null> => {
      await requireOwnPartner(ctx.db, ctx.staff.distributorId, input.partnerId);
      try {
        const { settings: _settings, ...view } = await getPsaConnection(ctx.db, input.partnerId);
        return view;
      } catch (error) {
        if (error instanceof AppError && error.code === "NOT_FOUND") return null;
        throw error;
      }
    }),
});
