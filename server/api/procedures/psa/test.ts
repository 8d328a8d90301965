import { z } from "zod";
import { PSA_NOT_CONNECTED, testPsaConnection } from "../../../psa/connections";
import { successTrue } from "../../schemas";
import { partnerOrDistributorProcedure } from "../../trpc";
import { PSA_PATH, PSA_TAGS } from "./fields";

export const test = partnerOrDistributorProcedure
  .meta({
    audit: { action: "psa.test", target: { type: "psa" } },
    openapi: {
      method: "POST",
      path: `${PSA_PATH}/test`,
      tags: PSA_TAGS,
      summary: "Test the PSA connection",
      description: [
        "One read call with the stored credentials (ConnectWise: the board and its statuses; Autotask: a companies query; HaloPSA:",
        "a token and the ticket type). `ok: false` says what failed and why; success clears a failing state and sends what waited",
        "([PSA tickets](/docs/integrations)).",
      ].join(" "),
    },
    errors: { failure: "Failed to test PSA connection" },
    responses: { 404: PSA_NOT_CONNECTED },
  })
  .input(z.object({}))
  .output(z.object({ success: successTrue, ok: z.boolean(), error: z.string().nullable().meta({ description: "What failed and why" }) }))
  .mutation(async ({ ctx }) => ({ success: true as const, ...(await testPsaConnection(ctx.db, ctx.caller.partnerId)) }));
