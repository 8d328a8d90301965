import { z } from "zod";
import { CUSTOMER_STATUSES, listPartnerCustomers } from "../../../customers/list";
import { issuePartnerApiKey, listPartnerApiKeys, revokePartnerApiKey } from "../../../distributors/partner-api-keys";
import { createPartner, getPartner, listPartners, requireOwnPartner, updatePartner } from "../../../distributors/partners";
import { partnerFieldsShape, partnerIdPath } from "../../procedures/distributor/partner-fields";
import type { StaffContext } from "../../audit";
import { router, staffProcedure } from "../../trpc";
import { iso, pageInput } from "./inputs";

export const PARTNERS_PAGE_SIZE = 20;
export const CUSTOMERS_PAGE_SIZE = 25;

const partnerInput = z.object({ partnerId: partnerIdPath });

/**
 * The admin UI's partners: list, create, edit (the distributor API's fields and checks), their
 * API keys and their customers. Every call is scoped to the staff member's distributor: another
 * distributor's partner answers like an unknown one (404 Partner not found).
 */
export const partnersRouter = router({
  list: staffProcedure
    .requires("viewer")
    .input(z.object({ search: z.string().trim().max(200).optional(), page: pageInput }))
    .query(async ({ ctx, input }) => {
      const result = await listPartners(ctx.db, ctx.staff.distributorId, { ...input, pageSize: PARTNERS_PAGE_SIZE });
      return {
        partners: result.partners.map((item) => ({ ...item, createdAt: iso(item.createdAt) })),
        pagination: result.pagination,
      };
    }),

  get: staffProcedure
    .requires("viewer")
    .input(partnerInput)
    .query(({ ctx, input }) => getPartner(ctx.db, ctx.staff.distributorId, input.partnerId)),

  create: staffProcedure
    .requires("admin")
    .meta({ audit: { action: "partner.create", target: { type: "partner" } } })
    .input(z.object(partnerFieldsShape))
    .mutation(async ({ ctx, input }) => {
      const { id } = await createPartner(ctx.db, { ...input, distributorId: ctx.staff.distributorId });
      return { uuid: id };
    }),

  update: staffProcedure
    .requires("admin")
    .meta({
      audit: {
        action: "partner.update",
        target: { type: "partner", key: "partnerId" },
        before: (ctx: StaffContext, input) => getPartner(ctx.db, ctx.staff.distributorId, String(input.partnerId)),
      },
    })
    .input(z.object({ partnerId: partnerIdPath, ...partnerFieldsShape, name: partnerFieldsShape.name.optional() }))
    .mutation(({ ctx, input }) => {
      const { partnerId, ...changes } = input;
      return updatePartner(ctx.db, ctx.staff.distributorId, partnerId, changes);
    }),

  apiKeys: staffProcedure
    .requires("viewer")
    .input(partnerInput)
    .query(async ({ ctx, input }) => {
      const keys = await listPartnerApiKeys(ctx.db, ctx.staff.distributorId, input.partnerId);
      // Named by id: the stored prefix is the start of the secret itself, so it stays out of the browser.
      return keys.map(({ prefix: _prefix, ...key }) => ({
        ...key,
        createdAt: iso(key.createdAt),
        lastUsedAt: iso(key.lastUsedAt),
        revokedAt: iso(key.revokedAt),
      }));
    }),

  /** The new key is in this answer only. */
  issueApiKey: staffProcedure
    .requires("admin")
    .meta({ audit: { action: "partner.api-key-issue", target: { type: "partner", key: "partnerId" } } })
    .input(partnerInput)
    .mutation(({ ctx, input }) =>
      issuePartnerApiKey(ctx.db, ctx.staff.distributorId, input.partnerId, `issued in the admin UI by ${ctx.staff.email}`),
    ),

  revokeApiKey: staffProcedure
    .requires("admin")
    .meta({ audit: { action: "partner.api-key-revoke", target: { type: "api-key", key: "keyId" } } })
    .input(z.object({ partnerId: partnerIdPath, keyId: z.string() }))
    .mutation(async ({ ctx, input }) => {
      await revokePartnerApiKey(ctx.db, ctx.staff.distributorId, input.partnerId, input.keyId, `staff ${ctx.staff.email}`);
      return { revoked: true };
    }),

  /** The partner's customers, newest first (read-only). */
  customers: staffProcedure
    .requires("viewer")
    .input(z.object({ partnerId: partnerIdPath, page: pageInput, status: z.enum(CUSTOMER_STATUSES).optional() }))
    .query(async ({ ctx, input }) => {
      await requireOwnPartner(ctx.db, ctx.staff.distributorId, input.partnerId);
      const result = await listPartnerCustomers(ctx.db, input.partnerId, {
        page: input.page,
        pageSize: CUSTOMERS_PAGE_SIZE,
        status: input.status,
      });
      return {
        customers: result.customers.map((customer) => ({ ...customer, lastScannedAt: iso(customer.lastScannedAt) })),
        pagination: result.pagination,
      };
    }),
});
