import { z } from "zod";
import { AppError } from "../../../errors";
import { requireOwnPartner } from "../../../distributors/partners";
import { staffOwnedCustomer } from "../../../customers/staff-view";
import {
  deletePsaConnection,
  editablePsaFields,
  getPsaConnection,
  mapCustomerToPsaCompany,
  savePsaConnection,
  testPsaConnection,
  type PsaView,
} from "../../../psa/connections";
import type { StaffContext } from "../../audit";
import { companyIdInput } from "../../procedures/psa/map-customer";
import { psaInput } from "../../procedures/psa/fields";
import { partnerIdPath } from "../../procedures/distributor/partner-fields";
import { router, staffProcedure } from "../../trpc";

/**
 * A partner's PSA connection on its admin page (docs/integrations.md): shown with its failing
 * state and reason; staff with the admin role connect or edit it (secrets are write-only: a blank
 * secret keeps the stored one while the address stays the same), run the test, remove it, and map
 * customers to PSA companies, through the services of the REST paths. Another distributor's
 * partner or customer is not found.
 */
const partnerInput = z.object({ partnerId: partnerIdPath });

/** The connection as the form shows it: no secrets; the stored fields but the secrets, to edit. */
async function connectionOf(ctx: StaffContext, partnerId: string) {
  try {
    const { settings: _settings, ...view } = await getPsaConnection(ctx.db, partnerId);
    return { ...view, fields: editablePsaFields({ ...view, settings: _settings }) };
  } catch (error) {
    if (error instanceof AppError && error.code === "NOT_FOUND") return null;
    throw error;
  }
}

export const psaRouter = router({
  get: staffProcedure
    .requires("viewer")
    .input(partnerInput)
    .query(async ({ ctx, input }): Promise<(Omit<PsaView, "settings"> & { fields: ReturnType<typeof editablePsaFields> }) | null> => {
      await requireOwnPartner(ctx.db, ctx.staff.distributorId, input.partnerId);
      return connectionOf(ctx, input.partnerId);
    }),

  save: staffProcedure
    .requires("admin")
    .meta({
      audit: {
        action: "psa.connect",
        target: { type: "psa", key: "partnerId" },
        before: async (ctx: StaffContext, input) => (await connectionOf(ctx, String(input.partnerId)))?.fields ?? null,
        after: (data) => (data as { fields: unknown }).fields,
      },
    })
    .input(z.object({ partnerId: partnerIdPath, ...psaInput }))
    .mutation(async ({ ctx, input: { partnerId, ...connection } }) => {
      await requireOwnPartner(ctx.db, ctx.staff.distributorId, partnerId);
      await savePsaConnection(ctx.db, partnerId, connection, { keepStoredSecrets: true });
      return (await connectionOf(ctx, partnerId))!;
    }),

  test: staffProcedure
    .requires("admin")
    .meta({ audit: { action: "psa.test", target: { type: "psa", key: "partnerId" } } })
    .input(partnerInput)
    .mutation(async ({ ctx, input }) => {
      await requireOwnPartner(ctx.db, ctx.staff.distributorId, input.partnerId);
      return testPsaConnection(ctx.db, input.partnerId);
    }),

  remove: staffProcedure
    .requires("admin")
    .meta({ audit: { action: "psa.disconnect", target: { type: "psa", key: "partnerId" } } })
    .input(partnerInput)
    .mutation(async ({ ctx, input }) => {
      await requireOwnPartner(ctx.db, ctx.staff.distributorId, input.partnerId);
      await deletePsaConnection(ctx.db, input.partnerId);
      return { removed: true };
    }),

  mapCustomer: staffProcedure
    .requires("admin")
    .meta({ audit: { action: "psa.map_customer", target: { type: "customer", key: "customerId" } } })
    .input(z.object({ customerId: z.string().max(100), companyId: companyIdInput }))
    .mutation(async ({ ctx, input }) => {
      const customer = await staffOwnedCustomer(ctx.db, ctx.staff.distributorId, input.customerId);
      return mapCustomerToPsaCompany(ctx.db, customer.partner.id, customer.id, input.companyId);
    }),
});
