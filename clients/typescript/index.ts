/**
 * A typed client of the exposure-monitoring REST API: openapi-fetch over the types openapi-typescript
 * generates from the service's OpenAPI document (schema.d.ts; `npm run generate:client`).
 * See README.md here, and the service's guide /docs/api, "Typed client".
 */
import createClient, { type Client } from "openapi-fetch";
import type { operations, paths as documentPaths } from "./schema.js";

export type { components, operations, webhooks } from "./schema.js";

const ONBOARD = "/api/v1/integrations/customer/onboard";
type Onboard = typeof ONBOARD;
type OnboardOperation = operations["customer-onboard"];
type DocumentOnboardBody = NonNullable<OnboardOperation["requestBody"]>["content"]["application/json"];

/**
 * Onboarding as the service takes it: the document lists both asset lists as optional, but a body
 * without either is refused, so here one of them is required.
 */
export type OnboardBody = DocumentOnboardBody & ({ assetsDomains: string[] } | { assetsEmails: string[] });

/** The document's paths, with the rules JSON Schema leaves to the message (OnboardBody) made types. */
export type paths = Omit<documentPaths, Onboard> & {
  [ONBOARD]: Omit<documentPaths[Onboard], "post"> & {
    post: Omit<OnboardOperation, "requestBody"> & { requestBody: { content: { "application/json": OnboardBody } } };
  };
};

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

export type ExposureClient = Client<paths>;

/** A client whose every call carries the organization's credential headers (SW-PARTNER-ID or SW-DISTRIBUTOR-ID, and SW-API-KEY). */
export function createExposureClient({ baseUrl, credentials, fetch }: ExposureClientOptions): ExposureClient {
  const id = "partnerId" in credentials ? { "SW-PARTNER-ID": credentials.partnerId } : { "SW-DISTRIBUTOR-ID": credentials.distributorId };
  return createClient<paths>({ baseUrl, fetch, headers: { ...id, "SW-API-KEY": credentials.apiKey } });
}
