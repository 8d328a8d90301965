import { z } from "zod";
import { getBillingCode as getBillingCodeService } from "../../../distributors/billing-codes";
import { distributorProcedure } from "../../trpc";
import { billingCodeSchema } from "./billing-code-schema";

const BILLING_CODE_ID_MESSAGE = "Billing code ID must be a number";

export const getBillingCode = distributorProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/api/v1/distributors/billing-codes/{billingCodeId}",
      tags: ["Distributor: billing codes"],
      summary: "Get a billing code",
      description: "Answers the billing code record itself (no envelope).",
    },
    errors: { failure: "Internal server error", validation: "message" },
    responses: { 400: BILLING_CODE_ID_MESSAGE, 404: "Billing code not found" },
  })
  .input(
    z.object({
      billingCodeId: z
        .string({ error: BILLING_CODE_ID_MESSAGE })
        .regex(/^\d{1,15}$/, { error: BILLING_CODE_ID_MESSAGE })
        .transform(Number)
        .meta({ description: "The billing code's integer id", example: "1" }),
    }),
  )
  .output(billingCodeSchema)
  .query(({ ctx, input }) => getBillingCodeService(ctx.db, ctx.caller.distributorId, input.billingCodeId));
