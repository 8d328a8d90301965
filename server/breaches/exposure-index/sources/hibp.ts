import { breach as fetchBreach, breachedAccount, breachedDomain, RateLimitError } from "hibp";
import type { Queryable } from "../../../db/client";
import { log } from "../../../log";
import { importCatalogue } from "../../catalogue/catalogue";
import { domainOfEmail, normalizeEmail } from "../../../email-address";
import { normalizeWebsiteDomain } from "../stealer-log-import";
import type { FoundExposure } from "../exposures";
import type { BreachSource } from "./source";

const REQUEST_TIMEOUT_MS = 15_000;
/** The whole catalogue is about a megabyte of JSON. */
const CATALOGUE_TIMEOUT_MS = 60_000;
const MAX_ATTEMPTS = 5;
/** Waits at most this long for one Retry-After, whatever the API asks. */
const MAX_BACKOFF_MS = 60_000;
const DEFAULT_BACKOFF_MS = 2_000;
/** What the hibp package throws for a domain that is not verified for this API key. */
const FORBIDDEN_MESSAGE = "Forbidden - access denied.";
const NOT_FOUND = Symbol("404");
const STEALER_LOG_PLAN_TTL_MS = 60 * 60_000;
const stealerLogPlans = new Map<string, { at: number; included: Promise<boolean> }>();
const FORBIDDEN = Symbol("403");

export interface HibpOptions {
  apiKey: string;
  /** https://haveibeenpwned.com/api/v3 in production; a local server in tests. */
  baseUrl: string;
  /** HIBP refuses requests without a User-Agent that names the client. */
  userAgent: string;
}

/**
 * Have I Been Pwned as the breach source (the `hibp` package): breachedaccount per address,
 * one request at a time, backing off on 429 for the Retry-After the API gives; the domain
 * search for discovery (only domains verified for the key answer). Breach names the catalogue
 * does not know yet are fetched and imported first.
 */
export class HibpBreachSource implements BreachSource {
  readonly name = "hibp";
  readonly remote = true;

  constructor(private readonly options: HibpOptions) {}

  async exposuresOfEmails(db: Queryable, emails: readonly string[]): Promise<FoundExposure[]> {
    const found: Array<{ email: string; breachName: string }> = [];
    for (const email of new Set(emails)) {
      const breaches = await this.withBackoff(() =>
        breachedAccount(email, { ...this.requestOptions(), apiKey: this.options.apiKey, truncate: true, includeUnverified: true }),
      );
      for (const breach of breaches ?? []) found.push({ email, breachName: breach.Name });
    }
    return this.resolveBreachIds(db, found);
  }

  /**
   * `stealerlogsbyemaildomain/{domain}` for each domain, when the key's plan includes stealer logs
   * (`subscription/status`, asked once per source): a key without them, or a domain HIBP refuses
   * (403: not verified for the key), degrades to breaches only, with a warning. HIBP does not say
   * which stealer-log corpus a capture came from, so the exposures are recorded under the
   * catalogue's most recently added stealer-log breach.
   */
  async stealerLogExposuresAtDomains(db: Queryable, verifiedDomains: readonly string[]): Promise<FoundExposure[]> {
    const domains = [...new Set(verifiedDomains)];
    if (domains.length === 0 || !(await this.includesStealerLogs())) return [];
    const [breach] = await db.$queryRaw<Array<{ id: string }>>`
      SELECT id::text FROM breaches WHERE is_stealer_log AND NOT is_retired ORDER BY added_date DESC, name LIMIT 1`;
    if (!breach) {
      log.warn("HIBP stealer logs skipped: the catalogue holds no stealer-log breach to record them under");
      return [];
    }
    const found: Array<{ domain: string; email: string; websiteDomain: string }> = [];
    for (const domain of domains) {
      const aliases = await this.withBackoff(() => this.getJson(`/stealerlogsbyemaildomain/${encodeURIComponent(domain)}`));
      if (aliases === FORBIDDEN) {
        log.warn("HIBP stealer-log search refused: the domain is not verified for this API key, or its plan lacks stealer logs", {
          domain,
        });
        continue;
      }
      if (aliases === NOT_FOUND) continue;
      if (typeof aliases !== "object" || aliases === null || Array.isArray(aliases)) {
        throw new Error(`HIBP answered GET /stealerlogsbyemaildomain/${domain} with JSON that is not a map of aliases`);
      }
      for (const [alias, websites] of Object.entries(aliases as Record<string, unknown>)) {
        const email = normalizeEmail(`${alias}@${domain}`);
        if (!email || !Array.isArray(websites)) continue;
        for (const website of websites) {
          const websiteDomain = typeof website === "string" ? normalizeWebsiteDomain(website) : undefined;
          if (websiteDomain) found.push({ domain: domainOfEmail(email), email, websiteDomain });
        }
      }
    }
    if (found.length === 0) return [];
    found.sort((a, b) => compare(a.domain, b.domain) || compare(a.email, b.email) || compare(a.websiteDomain, b.websiteDomain));
    await db.$executeRaw`
      INSERT INTO stealer_log_exposures (domain, email, breach_id, website_domain)
      SELECT f.domain, f.email, ${breach.id}::uuid, f.website
      FROM unnest(${found.map((row) => row.domain)}::text[], ${found.map((row) => row.email)}::text[],
                  ${found.map((row) => row.websiteDomain)}::text[]) AS f(domain, email, website)
      ON CONFLICT DO NOTHING`;
    return [...new Set(found.map((row) => row.email))].map((email) => ({ email, breachId: breach.id, sensitive: true }));
  }

  /**
   * Whether the key's plan includes the stealer-log APIs (`IncludesStealerLogs`), false with a
   * warning otherwise. Asked once an hour per key and API (each scan makes a source of its own).
   */
  private includesStealerLogs(): Promise<boolean> {
    const key = `${this.options.baseUrl} ${this.options.apiKey}`;
    const cached = stealerLogPlans.get(key);
    if (cached && Date.now() - cached.at < STEALER_LOG_PLAN_TTL_MS) return cached.included;
    const included = this.withBackoff(() => this.getJson("/subscription/status")).then((status) => {
      const yes =
        typeof status === "object" && status !== null && (status as { IncludesStealerLogs?: unknown }).IncludesStealerLogs === true;
      if (!yes) log.warn("HIBP stealer logs skipped: this API key's subscription does not include them; scans look up breaches only");
      return yes;
    });
    stealerLogPlans.set(key, { at: Date.now(), included });
    included.catch(() => stealerLogPlans.delete(key));
    return included;
  }

  /** One authenticated GET: the parsed JSON, NOT_FOUND for 404, FORBIDDEN for 403; throws on 429 (backed off) and other errors. */
  private async getJson(pathAndQuery: string): Promise<unknown> {
    const response = await fetch(`${this.options.baseUrl}${pathAndQuery}`, {
      headers: { "hibp-api-key": this.options.apiKey, "user-agent": this.options.userAgent, accept: "application/json" },
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    if (response.status === 429) throw new RateLimitError(response.headers.get("retry-after"), "HIBP rate limit reached");
    if (response.status === 404) return NOT_FOUND;
    if (response.status === 403) return FORBIDDEN;
    if (!response.ok) throw new Error(`HIBP answered GET ${pathAndQuery} with ${response.status} ${response.statusText}`.trim());
    try {
      return await response.json();
    } catch {
      throw new Error(`HIBP answered GET ${pathAndQuery} with a body that is not JSON`);
    }
  }

  async exposuresAtDomains(db: Queryable, domains: readonly string[]): Promise<FoundExposure[]> {
    const found: Array<{ email: string; breachName: string }> = [];
    for (const domain of new Set(domains)) {
      let aliases: Record<string, string[]> | null;
      try {
        aliases = await this.withBackoff(() => breachedDomain(domain, { ...this.requestOptions(), apiKey: this.options.apiKey }));
      } catch (error) {
        if (!(error instanceof Error) || error.message !== FORBIDDEN_MESSAGE) throw error;
        log.warn("HIBP domain search refused: the domain is not verified for this API key", { domain });
        continue;
      }
      for (const [alias, names] of Object.entries(aliases ?? {})) {
        const email = normalizeEmail(`${alias}@${domain}`);
        if (email) for (const breachName of names) found.push({ email, breachName });
      }
    }
    return this.resolveBreachIds(db, found);
  }

  /**
   * Every breach HIBP knows (`GET /breaches`), as its v3 records, for the catalogue sync. Sent with
   * the key and user agent like every other request; throws on any answer but a JSON array.
   */
  async allBreaches(): Promise<unknown[]> {
    return this.withBackoff(async () => {
      const response = await fetch(`${this.options.baseUrl}/breaches`, {
        headers: { "hibp-api-key": this.options.apiKey, "user-agent": this.options.userAgent, accept: "application/json" },
        signal: AbortSignal.timeout(CATALOGUE_TIMEOUT_MS),
      });
      if (response.status === 429) throw new RateLimitError(response.headers.get("retry-after"), "HIBP rate limit reached");
      if (!response.ok) throw new Error(`HIBP answered GET /breaches with ${response.status} ${response.statusText}`.trim());
      let body: unknown;
      try {
        body = await response.json();
      } catch {
        throw new Error("HIBP answered GET /breaches with a body that is not JSON");
      }
      if (!Array.isArray(body)) throw new Error("HIBP answered GET /breaches with JSON that is not an array of breaches");
      return body;
    });
  }

  private requestOptions() {
    return { baseUrl: this.options.baseUrl, userAgent: this.options.userAgent, timeoutMs: REQUEST_TIMEOUT_MS };
  }

  private async resolveBreachIds(db: Queryable, found: Array<{ email: string; breachName: string }>): Promise<FoundExposure[]> {
    let known = await catalogueByName(db);
    const unknown = [...new Set(found.map((row) => row.breachName).filter((name) => !known.has(name.toLowerCase())))];
    if (unknown.length > 0) {
      const records = [];
      for (const name of unknown) {
        const record = await this.withBackoff(() => fetchBreach(name, this.requestOptions()));
        if (record) records.push(record);
      }
      await importCatalogue(db, records);
      known = await catalogueByName(db);
    }
    return found.flatMap(({ email, breachName }) => {
      const breach = known.get(breachName.toLowerCase());
      return breach ? [{ email, breachId: breach.id, sensitive: breach.isSensitive }] : [];
    });
  }

  private async withBackoff<T>(request: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await request();
      } catch (error) {
        if (!(error instanceof RateLimitError) || attempt >= MAX_ATTEMPTS) throw error;
        const waitMs = Math.min(
          MAX_BACKOFF_MS,
          error.retryAfterSeconds !== undefined ? error.retryAfterSeconds * 1000 : DEFAULT_BACKOFF_MS,
        );
        // On stderr: the admin CLI's stdout carries only its JSON result.
        log.warn("HIBP rate limit reached; backing off", { waitMs, attempt });
        await new Promise((resolve) => setTimeout(resolve, waitMs));
      }
    }
  }
}

/** Catalogue breaches by lower-cased name, with what lookups need of them. */
async function catalogueByName(db: Queryable): Promise<Map<string, { id: string; isSensitive: boolean }>> {
  const rows = await db.breach.findMany({ select: { id: true, name: true, isSensitive: true } });
  return new Map(rows.map((row) => [row.name.toLowerCase(), { id: row.id, isSensitive: row.isSensitive }]));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
