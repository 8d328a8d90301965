import { isIP } from "node:net";
import path from "node:path";
import ipaddr from "ipaddr.js";
import { parseTrustProxy, type TrustProxy } from "./client-address";

/**
 * Every environment switch the service reads, in one place (README.md lists them).
 * Read on each call so tests and scripts can set the environment before use.
 */
export const config = {
  databaseUrl: (): string | undefined => nonEmpty(process.env.DATABASE_URL),
  /** Connections in each process's PostgreSQL pool (the listening and index-scan connections come beside it). */
  databasePoolSize: (): number => integer("DATABASE_POOL_SIZE", 10, 1, 1000),
  dataDir: (): string => path.resolve(/*turbopackIgnore: true*/ nonEmpty(process.env.DATA_DIR) ?? ".data"),
  port: (): number => integer("PORT", 3000, 1, 65535),
  /** The interface address the HTTP server binds (`127.0.0.1`, `::1`, ...); unset: every interface. */
  host: (): string | undefined => nonEmpty(process.env.HOST),
  /** The access log, one line per request (docs/operations.md, "Logs"); `false` turns it off. */
  logRequests: (): boolean => process.env.LOG_REQUESTS?.trim().toLowerCase() !== "false",
  appUrl: (): string => (nonEmpty(process.env.APP_URL) ?? `http://localhost:${config.port()}`).replace(/\/+$/, ""),
  webhookAllowPrivateUrls: (): boolean => process.env.WEBHOOK_ALLOW_PRIVATE_URLS === "true",
  /** Unknown keys in a REST body: refused with 400 (default), or `ignore`d for clients being migrated (docs/api.md). */
  apiUnknownFields: (): "refuse" | "ignore" => {
    const raw = nonEmpty(process.env.API_UNKNOWN_FIELDS)?.toLowerCase();
    if (raw === undefined || raw === "refuse") return "refuse";
    if (raw === "ignore") return "ignore";
    throw new Error(`API_UNKNOWN_FIELDS must be refuse or ignore (got "${process.env.API_UNKNOWN_FIELDS!.trim()}")`);
  },
  /** Days the audit log keeps a row (docs/admin-ui.md, "Audit log"); housekeeping prunes older ones. */
  auditRetentionDays: (): number => integer("AUDIT_RETENTION_DAYS", 400, 1, 36_500),
  breachCheckRateLimit: (): number => integer("BREACH_CHECK_RATE_LIMIT", 60, 1, 1_000_000),
  breachRetrieveRateLimit: (): number => integer("BREACH_RETRIEVE_RATE_LIMIT", 60, 1, 1_000_000),
  /** Have I Been Pwned as the breach source instead of the local exposure index. */
  hibpApiKey: (): string | undefined => nonEmpty(process.env.HIBP_API_KEY),
  hibpApiUrl: (): string => (nonEmpty(process.env.HIBP_API_URL) ?? "https://haveibeenpwned.com/api/v3").replace(/\/+$/, ""),
  hibpUserAgent: (): string => nonEmpty(process.env.HIBP_USER_AGENT) ?? "exposure-monitor (breach monitoring service)",
  /** Resolvers for domain verification's TXT lookups ("host:port,..."); empty: the system's (docs/domains.md). */
  dnsServers: (): string[] =>
    (nonEmpty(process.env.DNS_SERVERS) ?? "")
      .split(",")
      .map((server) => server.trim())
      .filter((server) => server !== ""),
  /** Send customer e-mails over SMTP (smtp://user:pass@host:587, smtps://...); unset: .eml files under DATA_DIR/mail. */
  smtpUrl: (): string | undefined => nonEmpty(process.env.SMTP_URL),
  /** The From of customer e-mails: an address, optionally with a display name ("Name <address>"). */
  mailFrom: (): string => nonEmpty(process.env.MAIL_FROM) ?? `Exposure monitoring <no-reply@${new URL(config.appUrl()).hostname}>`,
  webhookRetryBaseMs: (): number => integer("WEBHOOK_RETRY_BASE_MS", 30_000, 0, 86_400_000),
  /** The earlier webhook protocol's header prefix: `<prefix>-Event`, `<prefix>-Signature` (docs/webhooks.md). */
  webhookLegacyHeaderPrefix: (): string => {
    const prefix = nonEmpty(process.env.WEBHOOK_LEGACY_HEADER_PREFIX) ?? "X-Service";
    if (!/^[A-Za-z0-9]+(-[A-Za-z0-9]+)*$/.test(prefix)) {
      throw new Error(
        `WEBHOOK_LEGACY_HEADER_PREFIX must be letters and digits joined by single hyphens, such as X-Service (got "${prefix}")`,
      );
    }
    return prefix;
  },
  /**
   * Other names of plan types, read wherever a planType is (docs/customers.md):
   * "safeweb-basic=basic,safeweb-plus=plus". Names are compared lower-case.
   */
  planTypeAliases: (): ReadonlyMap<string, string> => {
    const aliases = new Map<string, string>();
    for (const entry of (nonEmpty(process.env.PLAN_TYPE_ALIASES) ?? "").split(",")) {
      if (entry.trim() === "") continue;
      const [alias, planType, ...rest] = entry.split("=").map((part) => part.trim().toLowerCase());
      if (!alias || !planType || rest.length > 0) {
        throw new Error(`PLAN_TYPE_ALIASES must be a comma-separated list of alias=planType pairs (got "${entry.trim()}")`);
      }
      aliases.set(alias, planType);
    }
    return aliases;
  },
  /** Microsoft's sign-in endpoint for a directory connection's token; another for a national cloud (docs/directory.md). */
  microsoftLoginUrl: (): string => (nonEmpty(process.env.MICROSOFT_LOGIN_URL) ?? "https://login.microsoftonline.com").replace(/\/+$/, ""),
  /** Microsoft Graph, where a connected directory's users and domains are read; another for a national cloud. */
  microsoftGraphUrl: (): string => (nonEmpty(process.env.MICROSOFT_GRAPH_URL) ?? "https://graph.microsoft.com").replace(/\/+$/, ""),
  /** Hours between two syncs of a connected directory (docs/directory.md). */
  directorySyncHours: (): number => integer("DIRECTORY_SYNC_HOURS", 6, 1, 168),
  /** Minutes between two reads of a PSA's closed tickets (docs/integrations.md). */
  psaPollMinutes: (): number => integer("PSA_POLL_MINUTES", 10, 1, 1440),
  /** How long one request to a partner's PSA may take before it counts as a time-out. */
  psaRequestTimeoutMs: (): number => integer("PSA_REQUEST_TIMEOUT_MS", 30_000, 100, 300_000),
  /** Autotask's zone look-up, where a connection without a zone URL finds its zone. */
  autotaskZoneLookupUrl: (): string =>
    (nonEmpty(process.env.AUTOTASK_ZONE_LOOKUP_URL) ?? "https://webservices.autotask.net/atservicesrest").replace(/\/+$/, ""),
  /** The app key that encrypts webhook signing secrets at rest (server/webhooks/app-key.ts). */
  appSecret: (): string | undefined => nonEmpty(process.env.APP_SECRET),
  /** Signs the UI session cookies; unset: a key derived from the app secret. */
  nextAuthSecret: (): string | undefined => nonEmpty(process.env.NEXTAUTH_SECRET),
  /** Print the schema engine's log while migrating (a developer's switch). */
  prismaEngineDebug: (): boolean => nonEmpty(process.env.PRISMA_ENGINE_DEBUG) !== undefined,
  inngestEnabled: (): boolean =>
    Boolean(nonEmpty(process.env.INNGEST_EVENT_KEY) || nonEmpty(process.env.INNGEST_SIGNING_KEY) || isTruthy(process.env.INNGEST_DEV)),
  /**
   * INNGEST_DEV: Inngest's local dev server drives the functions, and the SDK then runs a function
   * for any unsigned call. Refused unless APP_URL is a loopback address, so no deployment reachable
   * from elsewhere can run in that mode.
   */
  inngestDev: (): boolean => {
    if (!isTruthy(nonEmpty(process.env.INNGEST_DEV))) return false;
    if (!isLoopbackUrl(config.appUrl())) {
      throw new Error(
        `INNGEST_DEV runs Inngest functions for unsigned requests: it is refused unless APP_URL is a loopback address such as http://localhost:3000 (got "${config.appUrl()}")`,
      );
    }
    return true;
  },
  /** Whether `npm start` fills an empty database with the demo organization (default: embedded only). */
  seedDemo: (): boolean => {
    const value = nonEmpty(process.env.SEED_DEMO);
    return value === undefined ? isEmbeddedDatabase() : isTruthy(value);
  },
  /** Which peers' X-Forwarded-For is believed (server/client-address.ts); unset: none, the client is the peer. */
  trustProxy: (): TrustProxy => parseTrustProxy(process.env.TRUST_PROXY),
  /** Bearer token of GET /api/metrics; unset: the endpoint answers 404 (docs/operations.md, "Metrics"). */
  metricsToken: (): string | undefined => nonEmpty(process.env.METRICS_TOKEN),
  /**
   * Switches for the service's own infrastructure (ARCHITECTURE.md, "Custom infrastructure"):
   * each defaults to on; off goes the general way (same answers, slower).
   */
  restFastPath: (): boolean => onOff("REST_FAST_PATH"),
  directDriverReads: (): boolean => onOff("DIRECT_DRIVER_READS"),
  bulkCopy: (): boolean => onOff("BULK_COPY"),
  logLevel: (): "debug" | "info" | "warn" | "error" => {
    const level = process.env.LOG_LEVEL;
    return level === "debug" || level === "warn" || level === "error" ? level : "info";
  },
};

/** Reads every switch whose value can be malformed, so a bad one stops the start with its message. */
export function checkConfig(): void {
  for (const read of [
    config.port,
    config.databasePoolSize,
    config.breachCheckRateLimit,
    config.breachRetrieveRateLimit,
    config.apiUnknownFields,
    config.webhookRetryBaseMs,
    config.webhookLegacyHeaderPrefix,
    config.planTypeAliases,
    config.trustProxy,
    config.restFastPath,
    config.directDriverReads,
    config.bulkCopy,
    config.directorySyncHours,
    config.psaPollMinutes,
    config.psaRequestTimeoutMs,
    config.inngestDev,
  ])
    read();
}

export function isEmbeddedDatabase(): boolean {
  return config.databaseUrl() === undefined;
}

/** localhost (and *.localhost), 127.0.0.0/8 or ::1: a URL only this machine reaches. */
function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  } catch {
    return false;
  }
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  return isIP(host) !== 0 && ipaddr.process(host).range() === "loopback";
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}

function isTruthy(value: string | undefined): boolean {
  return value !== undefined && value !== "" && value !== "0" && value.toLowerCase() !== "false";
}

function integer(name: string, fallback: number, min: number, max: number): number {
  const raw = nonEmpty(process.env[name]);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
  }
  return value;
}

/** A switch that is on unless set to false, 0 or off (any case); anything else stops the start. */
function onOff(name: string): boolean {
  const raw = nonEmpty(process.env[name])?.toLowerCase();
  if (raw === undefined || raw === "true" || raw === "1" || raw === "on") return true;
  if (raw === "false" || raw === "0" || raw === "off") return false;
  throw new Error(`${name} must be true or false (got "${process.env[name]!.trim()}")`);
}
