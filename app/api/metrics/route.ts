import { getAppDb } from "@/server/db/instance";
import { metricsHandler } from "@/server/metrics/endpoint";

// Prometheus scrapes (docs/operations.md, "Metrics"); off unless METRICS_TOKEN is set.
export const dynamic = "force-dynamic";

export const GET = metricsHandler({ getDb: getAppDb });
