import { z } from "zod";
import { getPartner as getPartnerService, INVALID_PARTNER_ID, PARTNER_NOT_FOUND } from "../../../distributors/partners";
import { distributorProcedure } from "../../trpc";
import { partnerIdPath, partnerRecordSchema } from "./partner-fields";

export const getPartner = distributorProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/api/v1/distributors/partners/{partnerUuid}",
      tags: ["Distributor: partners"],
      summary: "Get a partner",
      description: "Answers the partner record itself (no envelope).",
    },
    errors: { failure: "Internal server error" },
    responses: { 400: INVALID_PARTNER_ID, 404: PARTNER_NOT_FOUND },
  })
  .input(z.object({ partnerUuid: partnerIdPath }))
  .output(partnerRecordSchema)
  .query(({ ctx, input }) => getPartnerService(ctx.db, ctx.caller.distributorId, input.partnerUuid));
