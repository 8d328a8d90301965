import { randomUUID } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { issueApiKey } from "../../server/auth/api-keys";
import { scanCustomer } from "../../server/findings/scanner";
import { openDatabase } from "../../server/db/client";
import { jobType } from "../../server/jobs/queue";
import { metricsHandler } from "../../server/metrics/endpoint";
import { claimAttempts } from "../../server/webhooks/delivery-engine/claim";
import { sweepDeliveries } from "../../server/webhooks/delivery-engine/sweep";
import { createEndpoint } from "../../server/webhooks/endpoints";
import { cycleSecret } from "../../server/webhooks/secrets";
import { routePendingEvents } from "../../server/webhooks/routing";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createTestOrg, type TestOrg } from "../helpers/fixtures";
import { serveOnLoopback, type LoopbackServer } from "../helpers/http";
import { startRestServer } from "../helpers/rest";
import { breach, createTestCustomer, drainWebhooks, recordTestEvent } from "../helpers/webhook-fixtures";
import { startReceiver, type ReplyRule } from "../helpers/webhook-receiver";

const TOKEN = "metrics-token-for-tests-0123456789";

let testDb: TestDatabase;
let rest: Awaited<ReturnType<typeof startRestServer>>;
let metricsServer: LoopbackServer;
let org: TestOrg;
const closers: Array<() => Promise<void>> = [];

beforeAll(async () => {
  testDb = await createTestDatabase();
  rest = await startRestServer(testDb.db);
  // The route's handler (app/api/metrics/route.ts) on this file's database.
  metricsServer = await serveOnLoopback(metricsHandler({ getDb: () => testDb.db }));
  org = await createTestOrg(testDb.db);
});
afterAll(async () => {
  for (const close of closers) await close();
  await metricsServer?.close();
  await rest?.close();
  await testDb?.close();
});
beforeEach(() => {
  vi.stubEnv("METRICS_TOKEN", TOKEN);
  vi.stubEnv("WEBHOOK_ALLOW_PRIVATE_URLS", "true");
  vi.stubEnv("WEBHOOK_RETRY_BASE_MS", "0");
  return () => vi.unstubAllEnvs();
});

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition (comments left out). */
function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not an exposition line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, name, value] of (match[2] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[name!] = value!;
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

class Scrape {
  readonly samples: Sample[];
  constructor(readonly text: string) {
    this.samples = parseExposition(text);
  }
  /** The value of the one sample with exactly these labels; 0 when there is none (a counter not yet touched). */
  value(name: string, labels: Record<string, string> = {}): number {
    const found = this.samples.filter((sample) => sample.name === name && sameLabels(sample.labels, labels));
    if (found.length > 1) throw new Error(`${found.length} samples of ${name} with ${JSON.stringify(labels)}`);
    return found[0]?.value ?? 0;
  }
  has(name: string): boolean {
    return this.samples.some((sample) => sample.name === name);
  }
}

function sameLabels(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}

async function get(headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }) {
  return fetch(`${metricsServer.baseUrl}/api/metrics`, { headers });
}

async function scrape(): Promise<Scrape> {
  const response = await get();
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return new Scrape(text);
}

const HTTP = "exposure_monitor_http_request_duration_seconds";
const ATTEMPTS = "exposure_monitor_webhook_attempts_total";

async function receiver(rule: ReplyRule) {
  const started = await startReceiver(rule);
  closers.push(started.close);
  return started;
}

describe("GET /api/metrics: access", () => {
  it("is off while METRICS_TOKEN is unset: 404 in the envelope, whatever the request carries", async () => {
    vi.stubEnv("METRICS_TOKEN", "");
    for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }] as Array<Record<string, string>>) {
      const response = await get(headers);
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ success: false, error: "Not found" });
    }
  });

  it.each([
    ["no Authorization header", {}],
    ["a wrong token", { authorization: "Bearer not-the-token" }],
    ["the token with a character more", { authorization: `Bearer ${TOKEN}x` }],
    ["the token without the Bearer scheme", { authorization: TOKEN }],
    ["Basic credentials", { authorization: `Basic ${Buffer.from(`metrics:${TOKEN}`).toString("base64")}` }],
  ])("answers 401 in the envelope to %s", async (_name, headers: Record<string, string>) => {
    const response = await get(headers);
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
    expect(await response.json()).toEqual({
      success: false,
      error: "A valid metrics token is required (Authorization: Bearer <METRICS_TOKEN>)",
    });
  });

  it("serves the Prometheus text format to the token, with the process's own metrics", async () => {
    const response = await get({ authorization: `bearer ${TOKEN}` });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-store");
    const result = new Scrape(await response.text());
    for (const name of [
      "process_cpu_user_seconds_total",
      "process_resident_memory_bytes",
      "nodejs_heap_size_used_bytes",
      "nodejs_eventloop_lag_seconds",
    ]) {
      expect(result.has(name), name).toBe(true);
    }
    for (const sample of result.samples)
      expect(result.text, sample.name).toMatch(new RegExp(`^# TYPE ${sample.name.replace(/_(bucket|sum|count)$/, "")} `, "m"));
  });
});

describe("HTTP requests, by route template and status", () => {
  it("counts REST calls under their template, never the raw path, with their durations", async () => {
    const plans = (await rest.api.get("/api/v1/distributors/plans", org.distributor.headers)).body.data as Array<{ id: string }>;
    const before = await scrape();
    const planRoute = { method: "GET", route: "/api/v1/distributors/plans/{planId}" };
    const health = { method: "GET", route: "/api/v1/health", status: "200" };
    const unknownPath = `/api/v1/no-such-thing/${randomUUID()}`;

    expect((await rest.api.get("/api/v1/health")).status).toBe(200);
    expect((await rest.api.get("/api/v1/health")).status).toBe(200);
    expect((await rest.api.get(`/api/v1/distributors/plans/${plans[0]!.id}`, org.distributor.headers)).status).toBe(200);
    expect((await rest.api.get(`/api/v1/distributors/plans/${plans[1]!.id}`, org.distributor.headers)).status).toBe(200);
    expect((await rest.api.get(`/api/v1/distributors/plans/${randomUUID()}`, org.distributor.headers)).status).toBe(404);
    expect((await rest.api.get(unknownPath)).status).toBe(404);
    expect((await rest.api.delete("/api/v1/health")).status).toBe(405);
    // the unversioned alias counts under the template it resolves to
    expect((await rest.api.get("/api/integrations/partner/plans", org.partner.headers)).status).toBe(200);

    const after = await scrape();
    const delta = (labels: Record<string, string>) => after.value(`${HTTP}_count`, labels) - before.value(`${HTTP}_count`, labels);
    expect(delta(health)).toBe(2);
    expect(delta({ ...planRoute, status: "200" })).toBe(2);
    expect(delta({ ...planRoute, status: "404" })).toBe(1);
    expect(delta({ method: "GET", route: "unmatched", status: "404" })).toBe(1);
    expect(delta({ method: "DELETE", route: "/api/v1/health", status: "405" })).toBe(1);
    expect(delta({ method: "GET", route: "/api/v1/integrations/partner/plans", status: "200" })).toBe(1);
    expect(after.text).not.toContain(plans[0]!.id);
    expect(after.text).not.toContain(unknownPath);

    expect(after.value(`${HTTP}_sum`, health)).toBeGreaterThan(before.value(`${HTTP}_sum`, health));
    expect(after.value(`${HTTP}_bucket`, { ...health, le: "+Inf" })).toBe(after.value(`${HTTP}_count`, health));
    expect(after.value(`${HTTP}_bucket`, { ...health, le: "10" })).toBe(after.value(`${HTTP}_count`, health));
  });
});

describe("breach/check rate-limit refusals", () => {
  it("counts each refused call (429), and only those", async () => {
    vi.stubEnv("BREACH_CHECK_RATE_LIMIT", "2");
    const key = await issueApiKey(testDb.db, { partnerId: org.partner.id });
    const headers = { "SW-PARTNER-ID": org.partner.id, "SW-API-KEY": key.apiKey };
    const check = () => rest.api.post("/api/v1/integrations/breach/check", { email: "someone@acme.example" }, headers);
    const checkRoute = { method: "POST", route: "/api/v1/integrations/breach/check" };
    const before = await scrape();

    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await check()).status);
    expect(statuses).toEqual([200, 200, 429, 429, 429]);

    const after = await scrape();
    const refusals = "exposure_monitor_breach_check_rate_limited_total";
    expect(after.value(refusals) - before.value(refusals)).toBe(3);
    expect(
      after.value(`${HTTP}_count`, { ...checkRoute, status: "429" }) - before.value(`${HTTP}_count`, { ...checkRoute, status: "429" }),
    ).toBe(3);
    expect(
      after.value(`${HTTP}_count`, { ...checkRoute, status: "200" }) - before.value(`${HTTP}_count`, { ...checkRoute, status: "200" }),
    ).toBe(2);
  });
});

describe("webhook attempts, by protocol and outcome", () => {
  async function currentEndpoint(rule: (token: () => string) => ReplyRule, maxAttempts?: number) {
    let token = "";
    const target = await receiver(rule(() => token));
    const owner = await createTestOrg(testDb.db);
    const customer = await createTestCustomer(testDb.db, owner.partner.id, { emails: ["a@acme.example"] });
    const created = await createEndpoint(testDb.db, { partnerId: owner.partner.id }, "current", {
      url: target.url,
      eventTypes: ["customer.created"],
      maxAttempts,
    });
    token = created.secret;
    return { target, customer, owner, endpointId: created.endpoint.id };
  }

  async function attemptsDuring(work: () => Promise<void>) {
    const before = await scrape();
    await work();
    const after = await scrape();
    const delta = (protocol: string, outcome: string) =>
      after.value(ATTEMPTS, { protocol, outcome }) - before.value(ATTEMPTS, { protocol, outcome });
    return Object.fromEntries(
      ["current", "legacy"].flatMap((protocol) =>
        ["delivered", "retry", "failed", "fallback", "interrupted"].map((outcome) => [`${protocol} ${outcome}`, delta(protocol, outcome)]),
      ),
    );
  }

  const none = Object.fromEntries(
    ["current", "legacy"].flatMap((protocol) =>
      ["delivered", "retry", "failed", "fallback", "interrupted"].map((outcome) => [`${protocol} ${outcome}`, 0]),
    ),
  );

  it("counts a retried then delivered delivery, and one that fails, as the receiver answered them", async () => {
    const flaky = await currentEndpoint(
      (token) => (_request, index) => (index < 2 ? { status: 503 } : { status: 200, signWith: token() }),
      5,
    );
    const gone = await currentEndpoint(() => () => ({ status: 410 }), 5);
    const counted = await attemptsDuring(async () => {
      await recordTestEvent(testDb.db, flaky.customer, "customer.created", {});
      await recordTestEvent(testDb.db, gone.customer, "customer.created", {});
      await drainWebhooks(testDb.db);
    });
    expect(flaky.target.requests).toHaveLength(3);
    expect(gone.target.requests).toHaveLength(1);
    expect(counted).toEqual({ ...none, "current retry": 2, "current delivered": 1, "current failed": 1 });
  });

  it("counts the request whose answer verified only with the fallback secret as fallback, then the delivery", async () => {
    // the receiver signs with the endpoint's first token, which the cycle turns into the fallback
    const { target, customer, owner } = await currentEndpoint((firstToken) => () => ({ status: 200, signWith: firstToken() }), 1);
    await cycleSecret(testDb.db, { partnerId: owner.partner.id });
    const counted = await attemptsDuring(async () => {
      await recordTestEvent(testDb.db, customer, "customer.created", {});
      await drainWebhooks(testDb.db);
    });
    expect(target.requests).toHaveLength(2);
    expect(counted).toEqual({ ...none, "current fallback": 1, "current delivered": 1 });
  });

  it("counts earlier-protocol attempts under legacy", async () => {
    const target = await receiver(() => ({ status: 200 }));
    const owner = await createTestOrg(testDb.db);
    const customer = await createTestCustomer(testDb.db, owner.partner.id, { emails: ["a@acme.example"] });
    await createEndpoint(testDb.db, { partnerId: owner.partner.id }, "legacy", { url: target.url, eventTypes: ["breach.new"] });
    const counted = await attemptsDuring(async () => {
      await recordTestEvent(testDb.db, customer, "customer.breach.found", { breaches: [breach("Metrics-2024", ["a@acme.example"])] });
      await drainWebhooks(testDb.db);
    });
    expect(target.requests).toHaveLength(1);
    expect(counted).toEqual({ ...none, "legacy delivered": 1 });
  });

  it("counts an attempt the sweep closes after its worker's lease ran out as interrupted", async () => {
    const { target, customer } = await currentEndpoint((token) => () => ({ status: 200, signWith: token() }), 3);
    const counted = await attemptsDuring(async () => {
      await recordTestEvent(testDb.db, customer, "customer.created", {});
      await routePendingEvents(testDb.db);
      // claimed as a worker that then died: its attempt row is open, no request went out
      expect((await claimAttempts(testDb.db, { limit: 10, leaseMs: 200 })).started).toHaveLength(1);
      await vi.waitFor(async () => expect(await sweepDeliveries(testDb.db)).toBe(1), { timeout: 10_000, interval: 100 });
      await drainWebhooks(testDb.db);
    });
    expect(target.requests).toHaveLength(1);
    expect(counted).toEqual({ ...none, "current interrupted": 1, "current delivered": 1 });
  });
});

describe("queue gauges, read at scrape time", () => {
  it("shows deliveries pending, due and in flight, and how long the oldest due one has waited", async () => {
    const target = await receiver(() => ({ status: 200 }));
    const owner = await createTestOrg(testDb.db);
    const { endpoint } = await createEndpoint(testDb.db, { partnerId: owner.partner.id }, "current", {
      url: target.url,
      eventTypes: ["customer.created"],
    });
    for (let i = 0; i < 4; i++) {
      await recordTestEvent(testDb.db, await createTestCustomer(testDb.db, owner.partner.id), "customer.created", {});
    }
    await routePendingEvents(testDb.db);
    const deliveries = await testDb.db.webhookDelivery.findMany({ where: { endpointId: endpoint.id }, orderBy: { sequence: "asc" } });
    expect(deliveries).toHaveLength(4);
    const [waitedLong, waitedLess, later, claimed] = deliveries.map((delivery) => delivery.id);
    try {
      await testDb.db
        .$executeRaw`UPDATE webhook_deliveries SET next_attempt_at = now() - interval '120 seconds' WHERE id = ${waitedLong}::uuid`;
      await testDb.db
        .$executeRaw`UPDATE webhook_deliveries SET next_attempt_at = now() - interval '5 seconds' WHERE id = ${waitedLess}::uuid`;
      await testDb.db.$executeRaw`UPDATE webhook_deliveries SET next_attempt_at = now() + interval '1 hour' WHERE id = ${later}::uuid`;
      await testDb.db.$executeRaw`
        UPDATE webhook_deliveries SET status = 'delivering', claim_token = gen_random_uuid(), lease_until = now() + interval '1 minute'
        WHERE id = ${claimed}::uuid`;

      const result = await scrape();
      expect(result.value("exposure_monitor_database_up")).toBe(1);
      expect(result.value("exposure_monitor_webhook_deliveries_pending")).toBe(3);
      expect(result.value("exposure_monitor_webhook_deliveries_due")).toBe(2);
      expect(result.value("exposure_monitor_webhook_deliveries_in_flight")).toBe(1);
      const age = result.value("exposure_monitor_webhook_oldest_due_delivery_age_seconds");
      expect(age).toBeGreaterThanOrEqual(120);
      expect(age).toBeLessThan(150);
    } finally {
      await testDb.db.webhookDelivery.updateMany({
        where: { endpointId: endpoint.id },
        data: { status: "failed", claimToken: null, leaseUntil: null },
      });
    }
    const cleared = await scrape();
    expect(cleared.value("exposure_monitor_webhook_deliveries_pending")).toBe(0);
    expect(cleared.value("exposure_monitor_webhook_deliveries_due")).toBe(0);
    expect(cleared.value("exposure_monitor_webhook_deliveries_in_flight")).toBe(0);
    expect(cleared.value("exposure_monitor_webhook_oldest_due_delivery_age_seconds")).toBe(0);
  });

  it("shows jobs pending and running by kind", async () => {
    const kind = `metrics-test.${randomUUID().slice(0, 8)}`;
    const otherKind = `${kind}-other`;
    const job = jobType(kind, z.object({}));
    await job.enqueue(testDb.db, {});
    await job.enqueue(testDb.db, {}, { runAt: new Date(Date.now() + 3_600_000) });
    const running = await job.enqueue(testDb.db, {});
    await jobType(otherKind, z.object({})).enqueue(testDb.db, {});
    await testDb.db.job.update({ where: { id: running! }, data: { status: "running", leaseUntil: new Date(Date.now() + 60_000) } });

    const result = await scrape();
    expect(result.value("exposure_monitor_jobs_pending", { kind })).toBe(2);
    expect(result.value("exposure_monitor_jobs_running", { kind })).toBe(1);
    expect(result.value("exposure_monitor_jobs_pending", { kind: otherKind })).toBe(1);
    expect(result.value("exposure_monitor_jobs_running", { kind: otherKind })).toBe(0);

    await testDb.db.job.updateMany({ where: { kind: { in: [kind, otherKind] } }, data: { status: "succeeded" } });
    const done = await scrape();
    expect(done.samples.filter((sample) => sample.labels.kind === kind || sample.labels.kind === otherKind)).toEqual([]);
  });

  it("reports the database down (0) and leaves the queue gauges out, still serving the rest", async () => {
    const broken = await openDatabase({ pglite: new PGlite() });
    await broken.close();
    const brokenServer = await serveOnLoopback(metricsHandler({ getDb: () => broken.prisma }));
    const unopened = await serveOnLoopback(metricsHandler({ getDb: () => Promise.reject(new Error("could not connect")) }));
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      for (const server of [brokenServer, unopened]) {
        const response = await fetch(`${server.baseUrl}/api/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
        expect(response.status).toBe(200);
        const result = new Scrape(await response.text());
        expect(result.value("exposure_monitor_database_up")).toBe(0);
        expect(result.has("exposure_monitor_webhook_deliveries_pending")).toBe(false);
        expect(result.has("exposure_monitor_jobs_pending")).toBe(false);
        expect(result.has("process_cpu_user_seconds_total")).toBe(true);
        expect(result.has("exposure_monitor_breach_check_rate_limited_total")).toBe(true);
      }
    } finally {
      stderr.mockRestore();
      await brokenServer.close();
      await unopened.close();
    }
  });
});

describe("breach scan durations", () => {
  it("observes each scan by reason and result: scanned, skipped, failed", async () => {
    const active = await createTestCustomer(testDb.db, org.partner.id, { emails: ["scan@acme.example"] });
    const inactive = await createTestCustomer(testDb.db, org.partner.id, { status: "inactive", emails: ["idle@acme.example"] });
    const scans = "exposure_monitor_breach_scan_duration_seconds_count";
    const before = await scrape();

    expect((await scanCustomer(testDb.db, active.id, "manual")).scanned).toBe(true);
    expect((await scanCustomer(testDb.db, inactive.id, "daily")).scanned).toBe(false);
    // a breach source that cannot be reached: the scan fails
    vi.stubEnv("HIBP_API_KEY", "test-key");
    vi.stubEnv("HIBP_API_URL", "http://127.0.0.1:9");
    await expect(scanCustomer(testDb.db, active.id, "daily")).rejects.toThrow();

    const after = await scrape();
    const delta = (reason: string, result: string) => after.value(scans, { reason, result }) - before.value(scans, { reason, result });
    expect(delta("manual", "scanned")).toBe(1);
    expect(delta("daily", "skipped")).toBe(1);
    expect(delta("daily", "failed")).toBe(1);
    expect(after.value("exposure_monitor_breach_scan_duration_seconds_sum", { reason: "manual", result: "scanned" })).toBeGreaterThan(0);
  });
});
