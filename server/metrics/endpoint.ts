import { createHash, timingSafeEqual } from "node:crypto";
import { Gauge, Registry } from "prom-client";
import { config } from "../config";
import type { Db } from "../db/client";
import { log } from "../log";
import { metrics } from "./registry";

export const METRICS_NOT_FOUND = "Not found";
export const METRICS_UNAUTHORIZED = "A valid metrics token is required (Authorization: Bearer <METRICS_TOKEN>)";

/**
 * GET /api/metrics (app/api/metrics/route.ts): the process's metrics in Prometheus's text format.
 * Off unless METRICS_TOKEN is set (404, as for any unknown path); then only a request carrying
 * `Authorization: Bearer <METRICS_TOKEN>` gets them (401 otherwise). The queue gauges are read
 * from the database at scrape time (docs/operations.md, "Metrics").
 */
export function metricsHandler({
  getDb,
  token = config.metricsToken,
}: {
  getDb: () => Db | Promise<Db>;
  token?: () => string | undefined;
}) {
  return async (request: Request): Promise<Response> => {
    const expected = token();
    if (expected === undefined) return envelope(404, METRICS_NOT_FOUND);
    if (!bearerMatches(request.headers.get("authorization"), expected)) {
      return envelope(401, METRICS_UNAUTHORIZED, { "WWW-Authenticate": 'Bearer realm="metrics"' });
    }
    const { registry } = metrics();
    const queue = await queueGauges(getDb);
    return new Response((await registry.metrics()) + (await queue.metrics()), {
      status: 200,
      headers: { "Content-Type": registry.contentType, "Cache-Control": "no-store" },
    });
  };
}

/** Compares digests, so the time taken says nothing about how much of the token was right. */
function bearerMatches(header: string | null, expected: string): boolean {
  const presented = /^Bearer\s+(.+)$/i.exec(header ?? "")?.[1]?.trim();
  if (presented === undefined) return false;
  const digest = (text: string) => createHash("sha256").update(text, "utf8").digest();
  return timingSafeEqual(digest(presented), digest(expected));
}

/**
 * The gauges read at scrape time, in a registry of this scrape's own: deliveries pending, due and
 * in flight, the age of the oldest due one, and jobs by kind (aggregates over the pending and
 * in-flight deliveries' partial indexes and the jobs' (status, run_at) index). When the database
 * does not answer, exposure_monitor_database_up is 0 and the others are left out rather than
 * shown as zero.
 */
async function queueGauges(getDb: () => Db | Promise<Db>): Promise<Registry> {
  const registry = new Registry();
  const gauge = (name: string, help: string, labelNames: string[] = []) => new Gauge({ name, help, labelNames, registers: [registry] });
  const databaseUp = gauge(
    "exposure_monitor_database_up",
    "1 when the database answered this scrape's queue queries, else 0 (the queue gauges are then left out)",
  );
  let snapshot: Awaited<ReturnType<typeof readQueues>>;
  try {
    snapshot = await readQueues(await getDb());
  } catch (error) {
    log.warn("metrics: the database did not answer the queue queries", { error });
    databaseUp.set(0);
    return registry;
  }
  databaseUp.set(1);
  const { deliveries, jobs } = snapshot;
  gauge("exposure_monitor_webhook_deliveries_pending", "Webhook deliveries waiting for their next attempt, due or not").set(
    deliveries.pending,
  );
  gauge("exposure_monitor_webhook_deliveries_due", "Webhook deliveries whose next attempt is due now").set(deliveries.due);
  gauge("exposure_monitor_webhook_deliveries_in_flight", "Webhook deliveries claimed by a worker, their request under way").set(
    deliveries.inFlight,
  );
  gauge(
    "exposure_monitor_webhook_oldest_due_delivery_age_seconds",
    "How long the oldest due webhook delivery has been due; 0 when none is",
  ).set(deliveries.oldestDueAge);
  const pending = gauge("exposure_monitor_jobs_pending", "Queued background jobs by kind, due now or scheduled later", ["kind"]);
  const running = gauge("exposure_monitor_jobs_running", "Background jobs being run by a worker, by kind", ["kind"]);
  for (const job of jobs) {
    pending.set({ kind: job.kind }, job.pending);
    running.set({ kind: job.kind }, job.running);
  }
  return registry;
}

async function readQueues(db: Db) {
  const [[deliveries], jobs] = await Promise.all([
    db.$queryRaw<Array<{ pending: number; due: number; inFlight: number; oldestDueAge: number }>>`
      SELECT pending.*, (SELECT count(*)::int FROM webhook_deliveries WHERE status = 'delivering') AS "inFlight"
      FROM (SELECT count(*)::int AS pending, count(*) FILTER (WHERE next_attempt_at <= now())::int AS due,
                   coalesce(extract(epoch FROM now() - min(next_attempt_at) FILTER (WHERE next_attempt_at <= now())), 0)::float8
                     AS "oldestDueAge"
            FROM webhook_deliveries WHERE status = 'pending') pending`,
    db.$queryRaw<Array<{ kind: string; pending: number; running: number }>>`
      SELECT kind, count(*) FILTER (WHERE status = 'pending')::int AS pending, count(*) FILTER (WHERE status = 'running')::int AS running
      FROM jobs WHERE status IN ('pending', 'running') GROUP BY kind ORDER BY kind`,
  ]);
  return { deliveries: deliveries!, jobs };
}

function envelope(status: number, error: string, headers: Record<string, string> = {}): Response {
  return Response.json({ success: false, error }, { status, headers: { "Cache-Control": "no-store", ...headers } });
}
