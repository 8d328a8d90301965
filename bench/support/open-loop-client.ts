/**
 * The load generator of bench/support/open-loop.ts, run in its own process so it takes no time
 * from the server's event loop. It receives its options over IPC, sends the requests at a steady
 * rate whether or not earlier answers have arrived (open loop, as independent clients do), and
 * times each from the moment it was due, not the moment it could be sent: a stalled server makes
 * every later request late, and that lateness is counted (no coordinated omission).
 *
 * The warm-up is the first part of the same schedule, on the same connections: a fresh process
 * would measure its own cold start (its code not yet optimized, its connections not yet open) in
 * the first second of the run. It says when the measured part starts ({ measuring: true }).
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import { Pool } from "undici";
import type { OpenLoopOptions, OpenLoopRun } from "./open-loop";

async function run(options: OpenLoopOptions): Promise<OpenLoopRun> {
  const pool = new Pool(options.baseUrl, { connections: options.connections, pipelining: 1 });
  const intervalMs = 1000 / options.rate;
  const warmUp = Math.round(options.rate * (options.warmUpSeconds ?? 0));
  const measured = Math.round(options.rate * options.seconds);
  const total = warmUp + measured;
  const latenciesMs = new Float64Array(total).fill(Number.NaN);
  // Time this process could not run its own event loop: a late send or a late read counts as latency.
  const ownDelay = monitorEventLoopDelay({ resolution: 1 });
  let sent = 0;
  let settled = 0;
  let non2xx = 0;
  let errors = 0;
  const firstError: string[] = [];
  const startedAt = performance.now() + 20;
  const measuredFrom = startedAt + warmUp * intervalMs;

  await new Promise<void>((resolve) => {
    const send = (index: number) => {
      if (index === warmUp) {
        process.send!({ measuring: true });
        ownDelay.enable();
      }
      const dueAt = startedAt + index * intervalMs;
      const request = options.requests[index % options.requests.length]!;
      pool
        .request({ origin: options.baseUrl, path: request.path, method: request.method, headers: request.headers, body: request.body })
        .then(async (response) => {
          await response.body.arrayBuffer();
          latenciesMs[index] = performance.now() - dueAt;
          if (index >= warmUp && (response.statusCode < 200 || response.statusCode > 299)) non2xx++;
        })
        .catch((error: unknown) => {
          if (index < warmUp) return;
          errors++;
          if (firstError.length === 0) firstError.push(String(error));
        })
        .finally(() => {
          if (++settled === total) resolve();
        });
    };
    const tick = () => {
      const now = performance.now();
      while (sent < total && startedAt + sent * intervalMs <= now) send(sent++);
      if (sent < total) setTimeout(tick, Math.max(0, startedAt + sent * intervalMs - performance.now()));
    };
    tick();
  });
  const elapsedMs = performance.now() - measuredFrom;
  ownDelay.disable();
  await pool.close();

  const sorted = Array.from(latenciesMs.subarray(warmUp))
    .filter((value) => !Number.isNaN(value))
    .sort((a, b) => a - b);
  const at = (quantile: number) => Number((sorted[Math.max(0, Math.ceil(quantile * sorted.length) - 1)] ?? Number.NaN).toFixed(2));
  const ms = (nanoseconds: number) => Number((nanoseconds / 1e6).toFixed(2));
  return {
    requests: measured,
    achievedRate: Math.round((sorted.length / elapsedMs) * 1000),
    non2xx,
    errors,
    firstError: firstError[0],
    latencyMs: { p50: at(0.5), p90: at(0.9), p99: at(0.99), p999: at(0.999), max: at(1) },
    loadGeneratorDelayMs: { p99: ms(ownDelay.percentile(99)), max: ms(ownDelay.max) },
  };
}

process.once("message", (options: OpenLoopOptions) => {
  run(options).then(
    (result) => process.send!(result, () => process.exit(0)),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
});
