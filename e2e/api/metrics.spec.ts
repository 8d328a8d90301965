import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { E2E_METRICS_TOKEN } from "../global-setup";

/**
 * GET /api/metrics on the production server (docs/operations.md, "Metrics"): the REST dispatcher
 * (the REST route's bundle, called by scripts/serve.ts), the server's count of what Next.js serves,
 * and the metrics route's own bundle all count into one registry.
 */
function countOf(text: string, labels: { method: string; route: string; status: number }): number {
  const line = text
    .split("\n")
    .find((candidate) =>
      candidate.startsWith(
        `exposure_monitor_http_request_duration_seconds_count{method="${labels.method}",route="${labels.route}",status="${labels.status}"} `,
      ),
    );
  return line ? Number(line.split(" ").at(-1)) : 0;
}

test("refuses a scrape without the token", async ({ request }) => {
  const response = await request.get("/api/metrics", { headers: { authorization: "Bearer wrong" } });
  expect(response.status()).toBe(401);
  expect((await response.json()).success).toBe(false);
});

test("counts REST calls, route handlers and pages of one process in one registry", async ({ request }) => {
  const scrape = async () => {
    const response = await request.get("/api/metrics", { headers: { authorization: `Bearer ${E2E_METRICS_TOKEN}` } });
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toBe("text/plain; version=0.0.4; charset=utf-8");
    return response.text();
  };
  const before = await scrape();
  for (let i = 0; i < 3; i++) expect((await request.get("/api/v1/health")).status()).toBe(200);
  expect((await request.get("/api/live")).status()).toBe(200);
  const page = await request.get(`/portal/breaches/${randomUUID()}`, { maxRedirects: 0 });
  expect((await request.get("/api/no-such-path")).status()).toBe(404);
  const after = await scrape();

  const delta = (labels: { method: string; route: string; status: number }) => countOf(after, labels) - countOf(before, labels);
  expect(delta({ method: "GET", route: "/api/v1/health", status: 200 })).toBe(3);
  expect(delta({ method: "GET", route: "/api/live", status: 200 })).toBe(1);
  expect(delta({ method: "GET", route: "/portal/breaches/[breachId]", status: page.status() })).toBe(1);
  // a path under /api/ that no REST procedure has: counted once, by the dispatcher
  expect(delta({ method: "GET", route: "unmatched", status: 404 })).toBe(1);
  // the first scrape itself, counted by the server once it was sent
  expect(delta({ method: "GET", route: "/api/metrics", status: 200 })).toBe(1);
  expect(after).toMatch(/^exposure_monitor_database_up 1$/m);
  expect(after).toMatch(/^process_resident_memory_bytes \d+/m);
  expect(after).toMatch(/^exposure_monitor_webhook_deliveries_pending \d+$/m);
});
