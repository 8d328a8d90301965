import { z } from "zod";
import { CUSTOMER_STATUSES, listPartnerCustomers } from "../../../customers/list";
import { queryInteger, successTrue } from "../../schemas";
import { partnerOrDistributorProcedure } from "../../trpc";

/** Beyond this page the offset is meaningless (and must stay a safe integer). */
const MAX_PAGE = 10_000_000;

export const listCustomers = partnerOrDistributorProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/api/v1/integrations/partner/customers",
      tags: ["Partner: customers"],
      summary: "List the partner's customers",
      description:
        "Newest first. `totalCount` counts every customer the status filter matches. `breachCount` counts breach " +
        "instances, resolved ones included; `emails` are monitored addresses (never the contact e-mail).",
    },
    errors: { failure: "Failed to list customers" },
  })
  .input(
    z.object({
      page: queryInteger(1).pipe(z.number().min(1).max(MAX_PAGE)).meta({ description: "Default 1" }),
      pageSize: queryInteger(20).pipe(z.number().min(1).max(100)).meta({ description: "1 to 100, default 20" }),
      status: z.enum(CUSTOMER_STATUSES, { error: `Status must be one of ${CUSTOMER_STATUSES.join(", ")}` }).optional(),
    }),
  )
  .output(
    z.object({
      success: successTrue,
      customers: z.array(
        z
          .object({
            customerId: z.string().meta({ format: "uuid" }),
            customerRef: z.string(),
            customerStatus: z.enum(CUSTOMER_STATUSES),
            breachStatus: z.boolean(),
            breachCount: z.number().int(),
            domains: z.array(z.string()),
            emails: z.array(z.string()),
          })
          .meta({ id: "CustomerListItem" }),
      ),
      pagination: z.object({
        totalCount: z.number().int(),
        page: z.number().int(),
        pageSize: z.number().int(),
        hasNextPage: z.boolean(),
      }),
    }),
  )
  .query(async ({ ctx, input }) => ({
    success: true as const,
    ...(await listPartnerCustomers(ctx.db, ctx.caller.partnerId, input)),
  }));
