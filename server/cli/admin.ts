import { parseArgs } from "node:util";
import { issueApiKey } from "../auth/api-keys";
import { createStaffUser, removeStaffUser } from "../auth/staff";
import { createStaffPasswordResetLink } from "../auth/staff-password-reset";
import type { Db } from "../db/client";
import { createBillingCode } from "../distributors/billing-codes";
import { createDistributor } from "../distributors/distributors";
import { createPartner } from "../distributors/partners";
import { syncCatalogueFromHibp } from "../breaches/exposure-index/catalogue-sync";
import { scanAllActiveCustomers } from "../findings/scanner";
import { DOMAIN_POLICIES, setDomainPolicy, type DomainPolicy } from "../domains/policy";
import { runImportBreaches } from "./import-breaches";

/** A mistake in the command line itself (exit code 2). */
export class UsageError extends Error {}

type OptionSpec = Record<string, { type: "string" | "boolean" }>;
type Values = Record<string, string | boolean | undefined>;

export interface AdminCommand {
  usage: string;
  summary: string;
  options: OptionSpec;
  run(db: Db, values: Values): Promise<unknown>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function requireString(values: Values, name: string): string {
  const value = values[name];
  if (typeof value !== "string" || value.trim() === "") throw new UsageError(`--${name} is required`);
  return value;
}

function requireUuid(values: Values, name: string, what: string): string {
  const value = requireString(values, name);
  if (!UUID.test(value)) throw new UsageError(`--${name} must be ${what} id (a uuid)`);
  return value;
}

function domainPolicyOption(values: Values, name: string): DomainPolicy {
  const value = requireString(values, name);
  if (!(DOMAIN_POLICIES as readonly string[]).includes(value)) {
    throw new UsageError(`--${name} must be one of ${DOMAIN_POLICIES.join(", ")} (got "${value}")`);
  }
  return value as DomainPolicy;
}

export const adminCommands: Record<string, AdminCommand> = {
  "create-distributor": {
    usage: "create-distributor --name NAME [--domain-policy verified|trusted]",
    summary: 'Creates a distributor (domain policy default verified, docs/domains.md) and its first API key: {"id", "apiKey"}',
    options: { name: { type: "string" }, "domain-policy": { type: "string" } },
    async run(db, values) {
      const domainPolicy = values["domain-policy"] === undefined ? "verified" : domainPolicyOption(values, "domain-policy");
      const { id } = await createDistributor(db, { name: requireString(values, "name"), domainPolicy });
      const { apiKey } = await issueApiKey(db, { distributorId: id }, "created by admin CLI");
      return { id, apiKey };
    },
  },
  "set-domain-policy": {
    usage: "set-domain-policy --distributor <uuid> --policy verified|trusted",
    summary: 'Sets a distributor\'s domain policy (docs/domains.md): {"id", "domainPolicy"}',
    options: { distributor: { type: "string" }, policy: { type: "string" } },
    async run(db, values) {
      const distributorId = requireUuid(values, "distributor", "a distributor");
      const policy = domainPolicyOption(values, "policy");
      if (!(await db.distributor.findUnique({ where: { id: distributorId }, select: { id: true } }))) {
        throw new UsageError(`no distributor with id ${distributorId}`);
      }
      return setDomainPolicy(db, distributorId, policy);
    },
  },
  "create-partner": {
    usage: "create-partner --distributor <uuid> --name NAME",
    summary: 'Creates a partner under a distributor and its first API key: {"id", "apiKey"}',
    options: { distributor: { type: "string" }, name: { type: "string" } },
    async run(db, values) {
      const { id } = await createPartner(db, {
        distributorId: requireUuid(values, "distributor", "a distributor"),
        name: requireString(values, "name"),
      });
      const { apiKey } = await issueApiKey(db, { partnerId: id }, "created by admin CLI");
      return { id, apiKey };
    },
  },
  "create-api-key": {
    usage: "create-api-key (--partner <uuid> | --distributor <uuid>)",
    summary: 'Issues another API key for a partner or a distributor: {"apiKey"}',
    options: { partner: { type: "string" }, distributor: { type: "string" } },
    async run(db, values) {
      if (Boolean(values.partner) === Boolean(values.distributor)) {
        throw new UsageError("give exactly one of --partner or --distributor");
      }
      if (values.partner) {
        const partnerId = requireUuid(values, "partner", "a partner");
        if (!(await db.partner.findUnique({ where: { id: partnerId }, select: { id: true } }))) {
          throw new UsageError(`no partner with id ${partnerId}`);
        }
        return { apiKey: (await issueApiKey(db, { partnerId }, "created by admin CLI")).apiKey };
      }
      const distributorId = requireUuid(values, "distributor", "a distributor");
      if (!(await db.distributor.findUnique({ where: { id: distributorId }, select: { id: true } }))) {
        throw new UsageError(`no distributor with id ${distributorId}`);
      }
      return { apiKey: (await issueApiKey(db, { distributorId }, "created by admin CLI")).apiKey };
    },
  },
  "create-staff": {
    usage: "create-staff --distributor <uuid> --email E --password P [--name NAME]",
    summary: 'Creates a staff account for the admin UI: {"id"}',
    options: { distributor: { type: "string" }, email: { type: "string" }, password: { type: "string" }, name: { type: "string" } },
    async run(db, values) {
      return createStaffUser(db, {
        distributorId: requireUuid(values, "distributor", "a distributor"),
        email: requireString(values, "email"),
        password: requireString(values, "password"),
        name: typeof values.name === "string" ? values.name : undefined,
      });
    },
  },
  "reset-staff-password": {
    usage: "reset-staff-password --email E",
    summary: 'A one-time link (one hour) with which the staff member chooses a new password: {"url", "expiresAt"}',
    options: { email: { type: "string" } },
    async run(db, values) {
      const { url, expiresAt } = await createStaffPasswordResetLink(db, requireString(values, "email"));
      return { url, expiresAt: expiresAt.toISOString() };
    },
  },
  "remove-staff": {
    usage: "remove-staff --email E",
    summary: 'Removes a staff account; its sessions end at once: {"id"}',
    options: { email: { type: "string" } },
    async run(db, values) {
      return removeStaffUser(db, requireString(values, "email"));
    },
  },
  "create-billing-code": {
    usage: "create-billing-code --distributor <uuid> --code CODE --price 9.5 [--currency EUR]",
    summary: 'Creates a billing code of a distributor: {"id"} (an integer)',
    options: { distributor: { type: "string" }, code: { type: "string" }, price: { type: "string" }, currency: { type: "string" } },
    async run(db, values) {
      const priceText = requireString(values, "price");
      const price = Number(priceText);
      if (!Number.isFinite(price) || price < 0) throw new UsageError(`--price must be a number >= 0 (got "${priceText}")`);
      return createBillingCode(db, {
        distributorId: requireUuid(values, "distributor", "a distributor"),
        code: requireString(values, "code"),
        price,
        ...(typeof values.currency === "string" ? { currency: values.currency } : {}),
      });
    },
  },
  "import-breaches": {
    usage: "import-breaches --catalogue FILE.json [--accounts FILE.csv]",
    summary:
      'Imports a breach catalogue (HIBP v3 JSON array) and exposed accounts (CSV "email,breach_name"): {"breaches", "accounts"} (accounts newly added)',
    options: { catalogue: { type: "string" }, accounts: { type: "string" } },
    async run(db, values) {
      return runImportBreaches(
        db,
        {
          catalogueFile: requireString(values, "catalogue"),
          accountsFile: typeof values.accounts === "string" ? values.accounts : undefined,
        },
        process.stderr,
      );
    },
  },
  "sync-catalogue": {
    usage: "sync-catalogue",
    summary: 'Brings new and changed breaches from Have I Been Pwned into the catalogue now (needs HIBP_API_KEY): {"added", "updated"}',
    options: {},
    async run(db) {
      return syncCatalogueFromHibp(db);
    },
  },
  "run-scans": {
    usage: "run-scans",
    summary: 'Runs the daily scan of every active customer now: {"scanned"}',
    options: {},
    async run(db) {
      const totals = await scanAllActiveCustomers(db);
      if (totals.failed > 0) throw new Error(`${totals.failed} scans failed (see the log); ${totals.scanned} succeeded`);
      return { scanned: totals.scanned };
    },
  },
};

export function adminUsage(): string {
  const lines = Object.values(adminCommands).map((command) => `  ${command.usage}\n      ${command.summary}`);
  return [
    "Usage: npm run --silent admin -- <command> [options]",
    "",
    "Prints one JSON object on stdout; errors go to stderr with a non-zero exit code.",
    "Uses DATABASE_URL when set, else the embedded database in DATA_DIR (default .data).",
    "",
    "Commands:",
    ...lines,
  ].join("\n");
}

/** Parses the command line and looks the command up, before any database is opened. */
export function parseAdminCommand(argv: string[]): { command: AdminCommand; values: Values } {
  const [name, ...rest] = argv;
  const command = name ? adminCommands[name] : undefined;
  if (!command) throw new UsageError(name ? `unknown command "${name}"` : "no command given");
  try {
    const { values, positionals } = parseArgs({ args: rest, options: command.options, strict: true, allowPositionals: true });
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    return { command, values };
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}
