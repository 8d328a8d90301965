import { z } from "zod";
import { CUSTOMER_NOT_FOUND } from "../../../customers/ownership";
import { MUTE_BREACH_NOT_FOUND, MUTE_TARGET_REQUIRED, MUTE_UNTIL_PAST, muteNotices } from "../../../customers/mutes";
import { emailField } from "../../schemas";
import { partnerOrDistributorProcedure } from "../../trpc";
import { customerIdPath } from "../customer/fields";
import { MUTES_PATH, MUTES_TAGS, muteOutput } from "./fields";

const UNTIL_INVALID = "until must be an ISO 8601 date-time";

export const create = partnerOrDistributorProcedure
  .meta({
    audit: { action: "customer.mute", target: { type: "customer", key: "customerId" } },
    openapi: {
      method: "POST",
      path: MUTES_PATH,
      tags: MUTES_TAGS,
      summary: "Mute a mailbox, a breach, or one mailbox in one breach of a customer",
      description: [
        "No human channel (breach alert e-mails, PSA tickets, chat) tells about what is muted, until `until` or for good;",
        "webhooks keep their events. Muting what is muted already sets that mute's end",
        "([quiet by design](/docs/notifications)).",
      ].join(" "),
    },
    errors: { failure: "Failed to mute", invalidJson: "Request body must be valid JSON" },
    responses: {
      400: [MUTE_TARGET_REQUIRED, MUTE_UNTIL_PAST, `Validation failed: until: ${UNTIL_INVALID}`],
      404: [CUSTOMER_NOT_FOUND, MUTE_BREACH_NOT_FOUND],
    },
  })
  .input(
    z.object({
      customerId: customerIdPath,
      email: emailField("Email").optional().meta({ description: "A mailbox of the customer" }),
      breachId: z.string().optional().meta({ description: "A breach of the customer: its id in the customer's breach list" }),
      until: z.iso.datetime({ offset: true, error: UNTIL_INVALID }).optional().meta({ description: "When the mute ends; omitted: never" }),
    }),
  )
  .output(muteOutput)
  .mutation(async ({ ctx, input }) => ({
    success: true as const,
    mute: await muteNotices(ctx.db, input.customerId, {
      email: input.email,
      breachId: input.breachId,
      until: input.until ? new Date(input.until) : undefined,
      mutedBy: "partner",
      partnerId: ctx.caller.partnerId,
    }),
  }));
