import { breach as fetchBreach, breachedAccount, breachedDomain, RateLimitError } from "hibp";
import type { Queryable } from "../../../db/client";
import { log } from "../../../log";
import { importCatalogue } from "../../catalogue/catalogue";
import { normalizeEmail } from "../../../email-address";
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
