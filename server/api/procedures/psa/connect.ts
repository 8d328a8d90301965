import { z } from "zod";
import { savePsaConnection } from "../../../psa/connections";
import { partnerOrDistributorProcedure } from "../../trpc";
import { ID_INVALID, PROVIDER_INVALID, PSA_PATH, PSA_TAGS, psaInput, psaOutput, TEXT_INVALID } from "./fields";

export const PSA_FIELD_REQUIRED = "Required for the {provider} provider";

export const connect = partnerOrDistributorProcedure
  .meta({
    audit: { action: "psa.connect", target: { type: "psa" } },
    openapi: {
      method: "PUT",
      path: PSA_PATH,
      tags: PSA_TAGS,
      summary: "Connect the partner's PSA (or replace the connection)",
      description: [
        "ConnectWise PSA, Autotask or HaloPSA: the mapped customers' findings become tickets, one per customer and breach",
        "(or per mailbox), exactly once. The URL follows the webhook URL rules; secrets are stored encrypted and never returned",
        "([PSA tickets](/docs/integrations)).",
      ].join(" "),
    },
    errors: { failure: "Failed to connect PSA", invalidJson: "Request body must be valid JSON" },
    responses: {
      400: [
        `Validation failed: provider: ${PROVIDER_INVALID}`,
        `Validation failed: {field}: ${PSA_FIELD_REQUIRED}`,
        `Validation failed: {field}: ${TEXT_INVALID}`,
        `Validation failed: {field}: ${ID_INVALID}`,
        "Validation failed: {field}: URL must use https:// (WEBHOOK_ALLOW_PRIVATE_URLS=true allows http:// for local testing)",
        "Validation failed: zoneUrl: The zone could not be found ({reason}); give zoneUrl",
      ],
    },
  })
  .input(z.object(psaInput))
  .output(psaOutput)
  .mutation(async ({ ctx, input }) => ({ success: true as const, psa: await savePsaConnection(ctx.db, ctx.caller.partnerId, input) }));
