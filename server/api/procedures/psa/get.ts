import { z } from "zod";
import { getPsaConnection, PSA_NOT_CONNECTED } from "../../../psa/connections";
import { partnerOrDistributorProcedure } from "../../trpc";
import { PSA_PATH, PSA_TAGS, psaOutput } from "./fields";

export const get = partnerOrDistributorProcedure
  .meta({
    openapi: {
      method: "GET",
      path: PSA_PATH,
      tags: PSA_TAGS,
      summary: "Get the partner's PSA connection",
      description:
        "Its settings without secrets, its state (failing: the PSA refused the credentials) and counts ([PSA tickets](/docs/integrations)).",
    },
    errors: { failure: "Failed to get PSA connection" },
    responses: { 404: PSA_NOT_CONNECTED },
  })
  .input(z.object({}))
  .output(psaOutput)
  .query(async ({ ctx }) => ({ success: true as const, psa: await getPsaConnection(ctx.db, ctx.caller.partnerId) }));
