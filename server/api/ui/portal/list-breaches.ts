import { z } from "zod";
import { BREACH_FILTERS, BREACH_SORTS, portalBreaches, portalCustomer } from "../../../portal/view";
import { customerProcedure } from "../../trpc";
import { breachListOutput } from "./schemas";

/** The customer's breaches (filtered, sorted, searched, paged), texts in the customer's locale; redacted for prospects. */
export const listBreaches = customerProcedure
  .input(
    z
      .object({
        filter: z.enum(BREACH_FILTERS).optional(),
        sort: z.enum(BREACH_SORTS).optional(),
        search: z.string().max(254).optional(),
        page: z.number().int().min(1).optional(),
        pageSize: z.number().int().min(1).max(1000).optional(),
      })
      .optional(),
  )
  .output(breachListOutput)
  .query(async ({ ctx, input }) => {
    const { locale } = await portalCustomer(ctx.db, ctx.customer.id);
    return portalBreaches(ctx.db, ctx.customer.id, locale, input);
  });
