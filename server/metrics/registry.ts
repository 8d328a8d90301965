import { collectDefaultMetrics, Counter, Histogram, Registry } from "prom-client";
import { processSlot } from "../process-slot";

/**
 * The metrics the process counts as it works (docs/operations.md, "Metrics"), served at
 * GET /api/metrics with the gauges read at scrape time (endpoint.ts). Next.js may
 * load this module once per server bundle, and the production server (scripts/serve.ts) loads it
 * too, so the registry lives in a process-wide slot: every copy counts into the same one.
 */
function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  return {
    registry,
    httpRequestDuration: new Histogram({
      name: "exposure_monitor_http_request_duration_seconds",
      help: "HTTP requests by method, route template and status: time until the answer was ready (its _count counts the requests)",
      labelNames: ["method", "route", "status"] as const,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    webhookAttempts: new Counter({
      name: "exposure_monitor_webhook_attempts_total",
      help: "Webhook requests made, by protocol and the outcome recorded for them",
      labelNames: ["protocol", "outcome"] as const,
      registers,
    }),
    scanDuration: new Histogram({
      name: "exposure_monitor_breach_scan_duration_seconds",
      help: "Breach scans of one customer by reason and result",
      labelNames: ["reason", "result"] as const,
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
      registers,
    }),
    breachCheckRateLimited: new Counter({
      name: "exposure_monitor_breach_check_rate_limited_total",
      help: "breach/check calls refused by the per-key rate limit (answered 429)",
      registers,
    }),
    staffSignInsRefused: new Counter({
      name: "exposure_monitor_staff_sign_ins_refused_total",
      help: "Admin UI sign-ins refused, by reason: invalid (wrong password or unknown e-mail), rate-limited, mfa-invalid or sso-required",
      labelNames: ["reason"] as const,
      registers,
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

const registry = processSlot<Metrics>("metrics");
let cached: Metrics | undefined;

/** The process's one set of metrics, created on first use. */
export function metrics(): Metrics {
  return (cached ??= registry.getOrCreate(createMetrics));
}

/** The route label of requests that matched no route (so unknown paths cannot add series). */
export const UNMATCHED_ROUTE = "unmatched";
const KNOWN_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** Records one answered HTTP request; `startedAt` is its performance.now() on arrival. */
export function observeHttpRequest(method: string, route: string, status: number, startedAt: number): void {
  metrics().httpRequestDuration.observe(
    { method: KNOWN_METHODS.has(method) ? method : "other", route, status },
    (performance.now() - startedAt) / 1000,
  );
}
