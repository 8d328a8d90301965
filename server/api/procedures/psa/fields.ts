import { z } from "zod";
import { successTrue } from "../../schemas";

/** The partner's PSA connection (docs/integrations.md). */
export const PSA_PATH = "/api/v1/integrations/psa";
export const PSA_TAGS = ["Partner: PSA"];

export const PROVIDER_INVALID = 'Provider must be "connectwise", "autotask" or "halopsa"';
export const ID_INVALID = "Must be a positive whole number (the PSA's id)";
export const TEXT_INVALID = "Must be a non-empty string of at most 500 characters";
export const COMPANY_ID_INVALID = "Company ID must be the PSA's id of the customer's company (1 to 100 characters)";

const text = (description: string) =>
  z
    .string({ error: TEXT_INVALID })
    .trim()
    .min(1, { error: TEXT_INVALID })
    .max(500, { error: TEXT_INVALID })
    .optional()
    .meta({ description });
const secret = (description: string) =>
  z
    .string({ error: TEXT_INVALID })
    .min(1, { error: TEXT_INVALID })
    .max(500, { error: TEXT_INVALID })
    .optional()
    .meta({ description: `${description}; stored encrypted, never returned` });
const id = (description: string) =>
  z.number({ error: ID_INVALID }).int({ error: ID_INVALID }).positive({ error: ID_INVALID }).optional().meta({ description });

export const psaInput = {
  provider: z.enum(["connectwise", "autotask", "halopsa"], { error: PROVIDER_INVALID }).meta({ description: "The PSA" }),
  ticketPerMailbox: z
    .boolean({ error: "ticketPerMailbox must be true or false" })
    .optional()
    .meta({ description: "One ticket per mailbox and breach instead of one per customer and breach (default false)" }),
  digest: z
    .enum(["off", "daily", "weekly"], { error: 'digest must be "off", "daily" or "weekly"' })
    .optional()
    .meta({
      description:
        "off (default): tickets and notes as findings are recorded; daily or weekly: new tickets and notes once per slot " +
        "(from 07:00 UTC; weekly on Mondays), still one ticket per customer and breach",
    }),
  site: text("ConnectWise: the site's base URL (https://na.myconnectwise.net)"),
  companyId: text("ConnectWise: the company id you sign in with"),
  publicKey: secret("ConnectWise: the API member's public key"),
  privateKey: secret("ConnectWise: the API member's private key"),
  clientId: text("ConnectWise: the integrator clientId from developer.connectwise.com; HaloPSA: the application's client ID"),
  boardId: id("ConnectWise: the service board tickets are opened on"),
  zoneUrl: text("Autotask: the zone's API URL (https://webservices5.autotask.net/ATServicesRest); omitted: found from the username"),
  username: text("Autotask: the API user's username"),
  secret: secret("Autotask: the API user's secret"),
  integrationCode: text("Autotask: the API tracking identifier (integration code)"),
  queueId: id("Autotask: the queue tickets are opened in"),
  url: text("HaloPSA: the instance's URL (https://yourcompany.halopsa.com)"),
  clientSecret: secret("HaloPSA: the application's client secret"),
  ticketTypeId: id("HaloPSA: the ticket type tickets are opened as"),
  tenant: text("HaloPSA: the tenant of a hosted instance, when its token endpoint needs one"),
  closedStatusId: id(
    "The status closed tickets get; default: ConnectWise the board's first closed status, Autotask 5 (Complete), HaloPSA 9 (Closed)",
  ),
  priorityIds: z
    .object({ high: id("Priority of high findings"), normal: id("Priority of the others") })
    .strict()
    .optional()
    .meta({ description: "The PSA's priority ids or values; high: sensitive breaches, exposed passwords, stealer logs" }),
};

export const psaView = z
  .object({
    provider: z.enum(["connectwise", "autotask", "halopsa"]),
    baseUrl: z.string().meta({ description: "The site, zone or instance URL" }),
    settings: z.record(z.string(), z.unknown()).meta({ description: "The settings that are not secret" }),
    ticketPerMailbox: z.boolean(),
    digest: z.enum(["off", "daily", "weekly"]),
    state: z.enum(["ok", "failing"]).meta({ description: "failing: the PSA refused the credentials (see lastError); nothing is sent" }),
    failingSince: z.string().nullable().meta({ format: "date-time" }),
    lastError: z.string().nullable().meta({ description: "What the PSA last answered when a request failed" }),
    lastPolledAt: z.string().nullable().meta({ format: "date-time", description: "When tickets closed in the PSA were last read" }),
    mappedCustomers: z.number().int(),
    openTickets: z.number().int(),
  })
  .meta({ id: "PsaConnection" });

export const psaOutput = z.object({ success: successTrue, psa: psaView });
