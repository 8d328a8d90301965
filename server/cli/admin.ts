import { parseArgs } from "node:util";
import { recordAuditAfter } from "../audit/log";
import { issueApiKey } from "../auth/api-keys";
import { createStaffUser, removeStaffUser } from "../auth/staff";
import { isStaffRole, STAFF_ROLES } from "../auth/staff-roles";
import { getSsoSettings, markBreakGlass, removeSsoSettings, setSsoSettings } from "../auth/staff-sso";
import { config } from "../config";
import { createStaffPasswordResetLink } from "../auth/staff-password-reset";
import type { Db } from "../db/client";
import { createBillingCode } from "../distributors/billing-codes";
import { createDistributor } from "../distributors/distributors";
import { createPartner } from "../distributors/partners";
import { syncCatalogueFromHibp } from "../breaches/exposure-index/catalogue-sync";
import { scanAllActiveCustomers } from "../findings/scanner";
import { DOMAIN_POLICIES, setDomainPolicy, type DomainPolicy } from "../domains/policy";
import { runImportBreaches } from "./import-breaches";
import { runImportStealerLogs } from "./import-stealer-logs";
import type { ServiceAccess } from "../service-access";
import { importBreachesThroughService, importStealerLogsThroughService } from "./through-service";

/** A mistake in the command line itself (exit code 2). */
export class UsageError extends Error {}

type OptionSpec = Record<string, { type: "string" | "boolean"; multiple?: boolean }>;
type Values = Record<string, string | boolean | string[] | undefined>;

/**
 * How a command is audited (actor `cli`): the action, whose log the row goes in and what it
 * changed, or why it changes nothing. test/audit/coverage.test.ts fails for a command without one.
 */
export type CliAudit =
  | {
      action: string | ((values: Values) => string);
      /** State read before the command runs (what a removal takes away), passed to the others. */
      before?: (db: Db, values: Values) => Promise<Record<string, unknown> | null>;
      distributor: (values: Values, result: Record<string, unknown>, before: Record<string, unknown> | null) => string | null | undefined;
      target?: (
        values: Values,
        result: Record<string, unknown>,
        before: Record<string, unknown> | null,
      ) => { type: string; id?: string | null };
      after?: (values: Values, result: Record<string, unknown>) => unknown;
    }
  | { skip: string };

export interface AdminCommand {
  usage: string;
  summary: string;
  options: OptionSpec;
  audit: CliAudit;
  /** Runs the command and appends its audit row. */
  run(db: Db, values: Values): Promise<unknown>;
  /**
   * For a command that can: runs it through the running server that holds the embedded database
   * (the server audits it), instead of failing because the database is in use.
   */
  throughService?(access: ServiceAccess, values: Values): Promise<unknown>;
}

/** A command whose run is audited (the row after the command succeeded). */
function command(spec: Omit<AdminCommand, "run"> & { run(db: Db, values: Values): Promise<unknown> }): AdminCommand {
  const audit = spec.audit;
  return {
    ...spec,
    async run(db, values) {
      if ("skip" in audit) return spec.run(db, values);
      const before = audit.before ? await audit.before(db, values) : null;
      const result = (await spec.run(db, values)) as Record<string, unknown>;
      const distributorId = audit.distributor(values, result ?? {}, before) ?? null;
      await recordAuditAfter(db, {
        distributorId,
        actor: { kind: "cli" },
        action: typeof audit.action === "function" ? audit.action(values) : audit.action,
        target: audit.target?.(values, result ?? {}, before),
        before: before ?? undefined,
        after: audit.after ? audit.after(values, result ?? {}) : result,
      });
      return result;
    },
  };
}

const text = (value: Values[string]): string | undefined => (typeof value === "string" ? value : undefined);

async function staffByEmail(db: Db, values: Values) {
  const email = text(values.email)?.trim().toLowerCase() ?? "";
  return db.staffUser.findUnique({ where: { email }, select: { id: true, email: true, distributorId: true, role: true } });
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

function roleOption(values: Values, name: string) {
  const value = requireString(values, name);
  if (!isStaffRole(value)) throw new UsageError(`--${name} must be one of ${STAFF_ROLES.join(", ")} (got "${value}")`);
  return value;
}

export const adminCommands: Record<string, AdminCommand> = {
  "create-distributor": command({
    usage: "create-distributor --name NAME [--domain-policy verified|trusted]",
    summary: 'Creates a distributor (domain policy default verified, docs/domains.md) and its first API key: {"id", "apiKey"}',
    options: { name: { type: "string" }, "domain-policy": { type: "string" } },
    audit: {
      action: "distributor.create",
      distributor: (_values, result) => String(result.id),
      target: (_values, result) => ({ type: "distributor", id: String(result.id) }),
      after: (values) => ({ name: values.name, domainPolicy: values["domain-policy"] ?? "verified" }),
    },
    async run(db, values) {
      const domainPolicy = values["domain-policy"] === undefined ? "verified" : domainPolicyOption(values, "domain-policy");
      const { id } = await createDistributor(db, { name: requireString(values, "name"), domainPolicy });
      const { apiKey } = await issueApiKey(db, { distributorId: id }, "created by admin CLI");
      return { id, apiKey };
    },
  }),
  "set-domain-policy": command({
    usage: "set-domain-policy --distributor <uuid> --policy verified|trusted",
    summary: 'Sets a distributor\'s domain policy (docs/domains.md): {"id", "domainPolicy"}',
    options: { distributor: { type: "string" }, policy: { type: "string" } },
    audit: {
      action: "distributor.domain-policy",
      distributor: (values) => text(values.distributor),
      target: (values) => ({ type: "distributor", id: text(values.distributor) }),
    },
    async run(db, values) {
      const distributorId = requireUuid(values, "distributor", "a distributor");
      const policy = domainPolicyOption(values, "policy");
      if (!(await db.distributor.findUnique({ where: { id: distributorId }, select: { id: true } }))) {
        throw new UsageError(`no distributor with id ${distributorId}`);
      }
      return setDomainPolicy(db, distributorId, policy);
    },
  }),
  "create-partner": command({
    usage: "create-partner --distributor <uuid> --name NAME",
    summary: 'Creates a partner under a distributor and its first API key: {"id", "apiKey"}',
    options: { distributor: { type: "string" }, name: { type: "string" } },
    audit: {
      action: "partner.create",
      distributor: (values) => text(values.distributor),
      target: (_values, result) => ({ type: "partner", id: String(result.id) }),
      after: (values, result) => ({ id: result.id, name: values.name }),
    },
    async run(db, values) {
      const { id } = await createPartner(db, {
        distributorId: requireUuid(values, "distributor", "a distributor"),
        name: requireString(values, "name"),
      });
      const { apiKey } = await issueApiKey(db, { partnerId: id }, "created by admin CLI");
      return { id, apiKey };
    },
  }),
  "create-api-key": command({
    usage: "create-api-key (--partner <uuid> | --distributor <uuid>)",
    summary: 'Issues another API key for a partner or a distributor: {"apiKey"}',
    options: { partner: { type: "string" }, distributor: { type: "string" } },
    audit: {
      action: "api-key.issue",
      before: async (db, values) =>
        values.partner ? db.partner.findUnique({ where: { id: String(values.partner) }, select: { id: true, distributorId: true } }) : null,
      distributor: (values, _result, before) => (before ? String(before.distributorId) : text(values.distributor)),
      target: (values) =>
        values.partner ? { type: "partner", id: text(values.partner) } : { type: "distributor", id: text(values.distributor) },
    },
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
  }),
  "create-staff": command({
    usage: `create-staff --distributor <uuid> --email E --password P [--name NAME] [--role ${STAFF_ROLES.join("|")}]`,
    summary: 'Creates a staff account for the admin UI (role default owner for the distributor\'s first, else agent): {"id", "role"}',
    options: {
      distributor: { type: "string" },
      email: { type: "string" },
      password: { type: "string" },
      name: { type: "string" },
      role: { type: "string" },
    },
    audit: {
      action: "staff.create",
      distributor: (values) => text(values.distributor),
      target: (_values, result) => ({ type: "staff", id: String(result.id) }),
      after: (values, result) => ({ email: values.email, role: result.role }),
    },
    async run(db, values) {
      return createStaffUser(db, {
        distributorId: requireUuid(values, "distributor", "a distributor"),
        email: requireString(values, "email"),
        password: requireString(values, "password"),
        name: typeof values.name === "string" ? values.name : undefined,
        role: values.role === undefined ? undefined : roleOption(values, "role"),
      });
    },
  }),
  "reset-staff-password": command({
    usage: "reset-staff-password --email E",
    summary: 'A one-time link (one hour) with which the staff member chooses a new password: {"url", "expiresAt"}',
    options: { email: { type: "string" } },
    audit: {
      action: "staff.password-reset-link",
      before: staffByEmail,
      distributor: (_values, _result, before) => (before ? String(before.distributorId) : null),
      target: (_values, _result, before) => ({ type: "staff", id: before ? String(before.id) : null }),
      after: (_values, result) => ({ expiresAt: result.expiresAt }),
    },
    async run(db, values) {
      const { url, expiresAt } = await createStaffPasswordResetLink(db, requireString(values, "email"));
      return { url, expiresAt: expiresAt.toISOString() };
    },
  }),
  "remove-staff": command({
    usage: "remove-staff --email E",
    summary: 'Removes a staff account; its sessions end at once: {"id"}',
    options: { email: { type: "string" } },
    audit: {
      action: "staff.remove",
      before: staffByEmail,
      distributor: (_values, _result, before) => (before ? String(before.distributorId) : null),
      target: (_values, result) => ({ type: "staff", id: String(result.id) }),
      after: () => null,
    },
    async run(db, values) {
      return removeStaffUser(db, requireString(values, "email"));
    },
  }),
  "set-sso": command({
    usage:
      "set-sso --distributor <uuid> --issuer URL --client-id X --client-secret Y [--required] [--allowed-domain D ...] [--jit-role ROLE] [--break-glass EMAIL ...]\n  set-sso --distributor <uuid> --off",
    summary:
      'Sets a distributor\'s single sign-on by OpenID Connect (docs/admin-ui.md), marking break-glass accounts; --off removes it: {"issuer", "clientId", "required", "allowedDomains", "jitRole", "redirectUri", "breakGlass"} or {"removed"}',
    options: {
      distributor: { type: "string" },
      issuer: { type: "string" },
      "client-id": { type: "string" },
      "client-secret": { type: "string" },
      required: { type: "boolean" },
      "allowed-domain": { type: "string", multiple: true },
      "jit-role": { type: "string" },
      "break-glass": { type: "string", multiple: true },
      off: { type: "boolean" },
    },
    audit: {
      action: (values) => (values.off ? "distributor.sso-off" : "distributor.sso-set"),
      before: (db, values) => getSsoSettings(db, String(values.distributor), config.appUrl()) as Promise<Record<string, unknown> | null>,
      distributor: (values) => text(values.distributor),
      target: (values) => ({ type: "distributor", id: text(values.distributor) }),
    },
    async run(db, values) {
      const distributorId = requireUuid(values, "distributor", "a distributor");
      if (!(await db.distributor.findUnique({ where: { id: distributorId }, select: { id: true } }))) {
        throw new UsageError(`no distributor with id ${distributorId}`);
      }
      if (values.off) {
        const others = ["issuer", "client-id", "client-secret", "required", "allowed-domain", "jit-role", "break-glass"].filter(
          (name) => values[name] !== undefined,
        );
        if (others.length > 0) throw new UsageError(`--off takes no other settings (got --${others[0]})`);
        return removeSsoSettings(db, distributorId);
      }
      const settings = await setSsoSettings(
        db,
        distributorId,
        {
          issuer: requireString(values, "issuer"),
          clientId: requireString(values, "client-id"),
          clientSecret: requireString(values, "client-secret"),
          required: values.required === true,
          allowedDomains: (values["allowed-domain"] as string[] | undefined) ?? [],
          jitRole: values["jit-role"] === undefined ? null : roleOption(values, "jit-role"),
        },
        config.appUrl(),
      );
      const breakGlass = await markBreakGlass(db, distributorId, (values["break-glass"] as string[] | undefined) ?? []);
      return { ...settings, breakGlass };
    },
  }),
  "create-billing-code": command({
    usage: "create-billing-code --distributor <uuid> --code CODE --price 9.5 [--currency EUR]",
    summary: 'Creates a billing code of a distributor: {"id"} (an integer)',
    options: { distributor: { type: "string" }, code: { type: "string" }, price: { type: "string" }, currency: { type: "string" } },
    audit: {
      action: "billing-code.create",
      distributor: (values) => text(values.distributor),
      target: (_values, result) => ({ type: "billing-code", id: String(result.id) }),
      after: (values, result) => ({ id: result.id, code: values.code, price: values.price, currency: values.currency ?? "EUR" }),
    },
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
  }),
  "import-breaches": command({
    usage: "import-breaches --catalogue FILE.json [--accounts FILE.csv]",
    summary:
      'Imports a breach catalogue (HIBP v3 JSON array) and exposed accounts (CSV "email,breach_name"): {"breaches", "accounts"} (accounts newly added)',
    options: { catalogue: { type: "string" }, accounts: { type: "string" } },
    audit: {
      action: "breaches.import",
      distributor: () => null,
      after: (values, result) => ({ catalogue: values.catalogue, accounts: values.accounts ?? null, ...result }),
    },
    async run(db, values) {
      return runImportBreaches(db, importBreachesFiles(values), process.stderr);
    },
    async throughService(access, values) {
      return importBreachesThroughService(access, importBreachesFiles(values), process.stderr);
    },
  }),
  "import-stealer-logs": command({
    usage: "import-stealer-logs --breach NAME --file FILE.csv",
    summary:
      'Imports stealer-log captures (CSV "email,website_domain[,captured_at]") into a stealer-log breach of the catalogue, resuming a run that stopped: {"rows", "added", "addresses", "rejected", "resumedAtByte"}',
    options: { breach: { type: "string" }, file: { type: "string" } },
    audit: {
      action: "breaches.import-stealer-logs",
      distributor: () => null,
      after: (values, result) => ({ breach: values.breach, file: values.file, ...result }),
    },
    async run(db, values) {
      return runImportStealerLogs(db, { breachName: requireString(values, "breach"), file: requireString(values, "file") }, process.stderr);
    },
    async throughService(access, values) {
      return importStealerLogsThroughService(
        access,
        { breachName: requireString(values, "breach"), file: requireString(values, "file") },
        process.stderr,
      );
    },
  }),
  "set-breach-importer": command({
    usage: "set-breach-importer --distributor <uuid> [--off]",
    summary:
      'Allows (or with --off no longer allows) the owners of a distributor to upload breach data in the admin UI, which every distributor\'s customers share (docs/admin-ui.md): {"id", "importsBreachData"}',
    options: { distributor: { type: "string" }, off: { type: "boolean" } },
    audit: {
      action: "distributor.breach-importer",
      distributor: (values) => text(values.distributor),
      target: (values) => ({ type: "distributor", id: text(values.distributor) }),
    },
    async run(db, values) {
      const distributorId = requireUuid(values, "distributor", "a distributor");
      if (!(await db.distributor.findUnique({ where: { id: distributorId }, select: { id: true } }))) {
        throw new UsageError(`no distributor with id ${distributorId}`);
      }
      return db.distributor.update({
        where: { id: distributorId },
        data: { importsBreachData: values.off !== true },
        select: { id: true, importsBreachData: true },
      });
    },
  }),
  "sync-catalogue": command({
    usage: "sync-catalogue",
    summary: 'Brings new and changed breaches from Have I Been Pwned into the catalogue now (needs HIBP_API_KEY): {"added", "updated"}',
    options: {},
    audit: { action: "breaches.sync-catalogue", distributor: () => null },
    async run(db) {
      return syncCatalogueFromHibp(db);
    },
  }),
  "run-scans": command({
    usage: "run-scans",
    summary: 'Runs the daily scan of every active customer now: {"scanned"}',
    options: {},
    audit: { action: "scans.run", distributor: () => null },
    async run(db) {
      const totals = await scanAllActiveCustomers(db);
      if (totals.failed > 0) throw new Error(`${totals.failed} scans failed (see the log); ${totals.scanned} succeeded`);
      return { scanned: totals.scanned };
    },
  }),
};

function importBreachesFiles(values: Values): { catalogueFile: string; accountsFile?: string } {
  return {
    catalogueFile: requireString(values, "catalogue"),
    accountsFile: typeof values.accounts === "string" ? values.accounts : undefined,
  };
}

export function adminUsage(): string {
  const lines = Object.values(adminCommands).map((command) => `  ${command.usage}\n      ${command.summary}`);
  return [
    "Usage: npm run --silent admin -- <command> [options]",
    "",
    "Prints one JSON object on stdout; errors go to stderr with a non-zero exit code.",
    "Uses DATABASE_URL when set, else the embedded database in DATA_DIR (default .data). While a running server",
    "holds the embedded database, import-breaches and import-stealer-logs send the files to that server.",
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
    return { command, values: values as Values };
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}
