/** The longest one request may take, its answer included: current protocol, earlier protocol. */
export const CURRENT_TIMEOUT_MS = 3_000;
export const LEGACY_TIMEOUT_MS = 2_000;
/** A chat message's request, or a syslog connection with all its records (docs/integrations.md). */
export const CHANNEL_TIMEOUT_MS = 10_000;
/** Longer than the longest attempt: a request and the fallback request, each bounded by its timeout. */
export const DELIVERY_LEASE_MS = 30_000;
/** Requests in flight per endpoint (across workers, as counted when claiming). */
export const PER_ENDPOINT_CONCURRENCY = 32;
/** An endpoint is disabled after this many failed deliveries in a row. */
export const AUTO_DISABLE_AFTER_FAILURES = 20;
