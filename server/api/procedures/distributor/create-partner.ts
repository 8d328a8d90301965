import { z } from "zod";
import { createPartner as createPartnerService } from "../../../distributors/partners";
import { successTrue } from "../../schemas";
import { distributorProcedure } from "../../trpc";
import { partnerFieldsShape } from "./partner-fields";

export const createPartner = distributorProcedure
  .meta({
    audit: { action: "partner.create", target: { type: "partner" } },
    openapi: {
      method: "POST",
      path: "/api/v1/distributors/partners",
      tags: ["Distributor: partners"],
      summary: "Create a partner",
      description: "Only `name` is required. Issue the partner's API key with POST .../partners/{partnerUuid}/api-keys.",
    },
    errors: { failure: "Internal server error", invalidJson: "Request body must be valid JSON" },
  })
  .input(z.object(partnerFieldsShape))
  .output(z.object({ success: successTrue, data: z.object({ uuid: z.string().meta({ format: "uuid" }) }) }))
  .mutation(async ({ ctx, input }) => {
    const { id } = await createPartnerService(ctx.db, { ...input, distributorId: ctx.caller.distributorId });
    return { success: true as const, data: { uuid: id } };
  });
