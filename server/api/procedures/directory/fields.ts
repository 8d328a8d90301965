import { z } from "zod";
import { successTrue } from "../../schemas";

/** The connection's path: under the customer's integrations (docs/directory.md). */
export const DIRECTORY_PATH = "/api/v1/integrations/customer/{customerId}/directory";
export const DIRECTORY_TAGS = ["Partner: customers"];

const GUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
/** A tenant is named by its id or one of its domains (contoso.onmicrosoft.com). */
const TENANT_DOMAIN = /^(?=.{1,253}$)[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;

export const TENANT_ID_INVALID = "Tenant ID must be a directory (tenant) ID or one of the tenant's domains";
export const CLIENT_ID_INVALID = "Client ID must be the application (client) ID, a GUID";
export const CLIENT_SECRET_REQUIRED = "Client secret is required";
export const GROUP_ID_INVALID = "Group ID must be the group's object ID, a GUID";
export const PROVIDER_INVALID = 'Provider must be "microsoft365"';

export const directoryInput = {
  provider: z.enum(["microsoft365"], { error: PROVIDER_INVALID }).meta({ description: "The directory's kind" }),
  tenantId: z
    .string({ error: TENANT_ID_INVALID })
    .trim()
    .refine((value) => GUID.test(value) || TENANT_DOMAIN.test(value), { error: TENANT_ID_INVALID })
    .transform((value) => value.toLowerCase())
    .meta({
      description: "The Microsoft Entra tenant: its directory (tenant) ID or a domain of it",
      example: "7a1b0c4e-9d3f-4b2a-8e6c-1f2d3a4b5c6d",
    }),
  clientId: z
    .string({ error: CLIENT_ID_INVALID })
    .trim()
    .regex(GUID, { error: CLIENT_ID_INVALID })
    .transform((value) => value.toLowerCase())
    .meta({ description: "The application (client) ID of the app registration", example: "0f8fad5b-d9cb-469f-a165-70867728950e" }),
  clientSecret: z
    .string({ error: CLIENT_SECRET_REQUIRED })
    .min(1, { error: CLIENT_SECRET_REQUIRED })
    .max(1024, { error: "Client secret must be at most 1024 characters" })
    .meta({ description: "A client secret of the app registration; stored encrypted, never returned" }),
  groupId: z
    .string({ error: GROUP_ID_INVALID })
    .trim()
    .regex(GUID, { error: GROUP_ID_INVALID })
    .transform((value) => value.toLowerCase())
    .nullable()
    .optional()
    .meta({ description: "Only this group's members (nested groups included) are monitored; omitted or null: every user" }),
};

export const directoryView = z
  .object({
    provider: z.enum(["microsoft365"]),
    tenantId: z.string(),
    clientId: z.string(),
    groupId: z.string().nullable(),
    state: z.enum(["syncing", "ok", "failing"]).meta({ description: "syncing: a sync is queued or running; failing: see lastError" }),
    lastSyncAt: z.string().nullable().meta({ format: "date-time", description: "When the last sync completed; null before the first" }),
    lastError: z.string().nullable().meta({ description: "Why the connection is failing, in words a partner can act on" }),
    activeUsers: z.number().int().meta({ description: "Enabled members (of the group, with one) whose mailboxes are monitored" }),
    inactiveUsers: z
      .number()
      .int()
      .meta({ description: "Disabled, deleted or out-of-group members whose mailboxes are no longer monitored" }),
    mailboxCount: z.number().int().meta({ description: "Monitored e-mail addresses that come from the directory" }),
    verifiedDomains: z.array(z.string()).meta({ description: "The tenant's verified domains as of the last sync" }),
  })
  .meta({ id: "DirectoryConnection" });

export const directoryOutput = z.object({ success: successTrue, directory: directoryView });
