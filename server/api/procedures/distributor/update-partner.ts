import type { DistributorContext } from "../../audit";
import { z } from "zod";
import { INVALID_PARTNER_ID, PARTNER_NOT_FOUND, updatePartner as updatePartnerService, getPartner } from "../../../distributors/partners";
import { distributorProcedure } from "../../trpc";
import { partnerFieldsShape, partnerIdPath, partnerRecordSchema } from "./partner-fields";

export const updatePartner = distributorProcedure
  .meta({
    audit: {
      action: "partner.update",
      target: { type: "partner", key: "partnerUuid" },
      before: (ctx: DistributorContext, input) => getPartner(ctx.db, ctx.caller.distributorId, String(input.partnerUuid)),
    },
    openapi: {
      method: "PATCH",
      path: "/api/v1/distributors/partners/{partnerUuid}",
      tags: ["Distributor: partners"],
      summary: "Update a partner",
      description: "Changes the fields given (null clears an optional one); answers the updated record (no envelope).",
    },
    errors: { failure: "Internal server error", invalidJson: "Request body must be valid JSON" },
    responses: { 400: INVALID_PARTNER_ID, 404: PARTNER_NOT_FOUND },
  })
  .input(z.object({ partnerUuid: partnerIdPath, ...partnerFieldsShape, name: partnerFieldsShape.name.optional() }))
  .output(partnerRecordSchema)
  .mutation(({ ctx, input }) => {
    const { partnerUuid, ...changes } = input;
    return updatePartnerService(ctx.db, ctx.caller.distributorId, partnerUuid, changes);
  });
