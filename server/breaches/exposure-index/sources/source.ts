import type { Queryable } from "../../../db/client";
import type { FoundExposure } from "../exposures";

/**
 * Where exposures come from: the local exposure index by default, the Have I Been Pwned API
 * when HIBP_API_KEY is set. Addresses and domains are normalized (lower-case); breach ids are
 * catalogue ids.
 */
export interface BreachSource {
  readonly name: string;
  /** A lookup is a request to a third party (never made for a call that is refused). */
  readonly remote: boolean;
  exposuresOfEmails(db: Queryable, emails: readonly string[]): Promise<FoundExposure[]>;
  /** Exposed addresses at the domains (domain-based e-mail discovery). */
  exposuresAtDomains(db: Queryable, domains: readonly string[]): Promise<FoundExposure[]>;
  /**
   * Stealer-log exposures at domains verified for a customer, for a source that keeps them apart
   * from its breaches (HIBP); the website domains are stored in stealer_log_exposures. The local
   * index needs none: imported stealer logs are in it already.
   */
  stealerLogExposuresAtDomains?(db: Queryable, verifiedDomains: readonly string[]): Promise<FoundExposure[]>;
}
