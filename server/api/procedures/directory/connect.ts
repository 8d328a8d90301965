import { z } from "zod";
import { CUSTOMER_NOT_FOUND } from "../../../customers/ownership";
import { connectDirectory } from "../../../directory/connections";
import { partnerOrDistributorProcedure } from "../../trpc";
import { customerIdPath } from "../customer/fields";
import {
  CLIENT_ID_INVALID,
  CLIENT_SECRET_REQUIRED,
  DIRECTORY_PATH,
  DIRECTORY_TAGS,
  directoryInput,
  directoryOutput,
  GROUP_ID_INVALID,
  PROVIDER_INVALID,
  TENANT_ID_INVALID,
} from "./fields";

export const connect = partnerOrDistributorProcedure
  .meta({
    audit: { action: "directory.connect", target: { type: "customer", key: "customerId" } },
    openapi: {
      method: "PUT",
      path: DIRECTORY_PATH,
      tags: DIRECTORY_TAGS,
      summary: "Connect a customer's Microsoft 365 directory (or replace the connection)",
      description: [
        "The customer's enabled member users' mailboxes (mail and smtp: aliases) become monitored addresses with the source",
        "`directory`, kept in step every DIRECTORY_SYNC_HOURS; users who are disabled, deleted or leave the group stop being",
        "monitored. The first sync starts at once. The client secret is stored encrypted and never returned",
        "([directory sync](/docs/directory)).",
      ].join(" "),
    },
    errors: { failure: "Failed to connect directory", invalidJson: "Request body must be valid JSON" },
    responses: {
      400: [
        `Validation failed: provider: ${PROVIDER_INVALID}`,
        `Validation failed: tenantId: ${TENANT_ID_INVALID}`,
        `Validation failed: clientId: ${CLIENT_ID_INVALID}`,
        `Validation failed: clientSecret: ${CLIENT_SECRET_REQUIRED}`,
        `Validation failed: groupId: ${GROUP_ID_INVALID}`,
      ],
      404: CUSTOMER_NOT_FOUND,
    },
  })
  .input(z.object({ customerId: customerIdPath, ...directoryInput }))
  .output(directoryOutput)
  .mutation(async ({ ctx, input }) => {
    const { customerId, ...connection } = input;
    return { success: true as const, directory: await connectDirectory(ctx.db, ctx.caller.partnerId, customerId, connection) };
  });
