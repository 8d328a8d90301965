/**
 * A typed client of the exposure-monitoring REST API: openapi-fetch over the types openapi-typescript
 * generates from the service's OpenAPI document (schema.d.ts; `npm run generate:client`).
 * See README.md here, and docs/api.md, "Typed client".
 */
import createClient, { type Client } from "openapi-fetch";
import type { paths } from "./schema";

export type { components, operations, paths, webhooks } from "./schema";

/** A partner's key; or a distributor's key acting for one of its partners, where a path allows it. */
export interface PartnerCredentials {
  partnerId: string;
  apiKey: string;
}

export interface DistributorCredentials {
  distributorId: string;
  apiKey: string;
}

export interface ExposureClientOptions {
  /** The service's address, e.g. https://monitor.example.net (no path). */
  baseUrl: string;
  credentials: PartnerCredentials | DistributorCredentials;
  /** A fetch of your own (tests, proxies); the global fetch otherwise. */
  fetch?: typeof globalThis.fetch;
}

/** A client whose every call carries the organization's credential headers (SW-PARTNER-ID or SW-DISTRIBUTOR-ID, and SW-API-KEY). */
export function createExposureClient({ baseUrl, credentials, fetch }: ExposureClientOptions): Client<paths> {
  const id = "partnerId" in credentials ? { "SW-PARTNER-ID": credentials.partnerId } : { "SW-DISTRIBUTOR-ID": credentials.distributorId };
  return createClient<paths>({ baseUrl, fetch, headers: { ...id, "SW-API-KEY": credentials.apiKey } });
}
