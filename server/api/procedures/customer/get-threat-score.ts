import { z } from "zod";
import { getThreatScore as getThreatScoreService } from "../../../customers/info";
import { successTrue } from "../../schemas";
import { partnerProcedure } from "../../trpc";
import { customerIdPath } from "./fields";

export const getThreatScore = partnerProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/api/v1/integrations/customer/{customerId}/threat-score",
      tags: ["Partner: customers"],
      summary: "Get a customer's threat score",
      description: "An integer from 0 to 97, recomputed by every scan; 0 until the first scan finds something.",
    },
    errors: { failure: "Failed to retrieve threat score", validation: { prefix: "Invalid route parameters: " } },
    responses: {
      400: "Invalid route parameters: Customer ID must be a valid UUID",
      404: "Customer not found or does not belong to partner",
    },
  })
  .input(z.object({ customerId: customerIdPath }))
  .output(z.object({ success: successTrue, threatScore: z.number().int().min(0).meta({ example: 42 }) }))
  .query(async ({ ctx, input }) => ({
    success: true as const,
    threatScore: await getThreatScoreService(ctx.db, ctx.caller.partnerId, input.customerId),
  }));
