import { z } from "zod";
import { CUSTOMER_NOT_FOUND } from "../../../customers/ownership";
import { mapCustomerToPsaCompany } from "../../../psa/connections";
import { successTrue } from "../../schemas";
import { partnerOrDistributorProcedure } from "../../trpc";
import { customerIdPath } from "../customer/fields";
import { COMPANY_ID_INVALID, PSA_TAGS } from "./fields";

/** The PSA's id of the customer's company (the admin UI's form takes the same). */
export const companyIdInput = z
  .union([z.string(), z.number()], { error: COMPANY_ID_INVALID })
  .transform((value) => String(value).trim())
  .refine((value) => value.length >= 1 && value.length <= 100, { error: COMPANY_ID_INVALID })
  .meta({ description: "The PSA's id of the customer's company", example: "250" });

export const mapCustomer = partnerOrDistributorProcedure
  .meta({
    audit: { action: "psa.map_customer", target: { type: "customer", key: "customerId" } },
    openapi: {
      method: "PUT",
      path: "/api/v1/integrations/customer/{customerId}/psa",
      tags: PSA_TAGS,
      summary: "Map a customer to its PSA company",
      description: [
        "The ConnectWise company id, Autotask account id or HaloPSA client id of the customer. An unmapped customer's findings",
        "wait; mapping it tickets its open findings ([PSA tickets](/docs/integrations)).",
      ].join(" "),
    },
    errors: { failure: "Failed to map customer to PSA company", invalidJson: "Request body must be valid JSON" },
    responses: { 400: `Validation failed: companyId: ${COMPANY_ID_INVALID}`, 404: CUSTOMER_NOT_FOUND },
  })
  .input(
    z.object({
      customerId: customerIdPath,
      companyId: companyIdInput,
    }),
  )
  .output(z.object({ success: successTrue, customerId: z.string(), companyId: z.string() }))
  .mutation(async ({ ctx, input }) => ({
    success: true as const,
    ...(await mapCustomerToPsaCompany(ctx.db, ctx.caller.partnerId, input.customerId, input.companyId)),
  }));
