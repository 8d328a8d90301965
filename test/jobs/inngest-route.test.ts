import { createHmac } from "node:crypto";
import { NextRequest } from "next/server";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { checkConfig } from "../../server/config";
import { listenOnLoopback, type LoopbackServer } from "../helpers/http";

const SIGNING_KEY = `signkey-test-${"0123456789abcdef".repeat(4)}`;
let inngestApi: LoopbackServer;
/** The serve URLs the Inngest API was asked to register. */
const registered: string[] = [];

beforeAll(async () => {
  // Inngest's API, as far as a sync uses it: POST /fn/register with the app's URL and functions.
  inngestApi = await listenOnLoopback(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.url?.startsWith("/fn/register")) registered.push((JSON.parse(Buffer.concat(chunks).toString()) as { url: string }).url);
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ ok: true, modified: true }));
  });
});
afterAll(async () => {
  await inngestApi?.close();
});
afterEach(() => {
  vi.unstubAllEnvs();
  registered.length = 0;
});

/** The route as a fresh process loads it (it keeps its handlers, and the Inngest client its mode, once loaded). */
async function freshRoute() {
  vi.resetModules();
  return import("../../app/api/inngest/route");
}

function cloudMode() {
  vi.stubEnv("INNGEST_DEV", "");
  vi.stubEnv("INNGEST_SIGNING_KEY", SIGNING_KEY);
  vi.stubEnv("INNGEST_EVENT_KEY", "test-event-key");
  vi.stubEnv("INNGEST_BASE_URL", inngestApi.baseUrl);
  vi.stubEnv("APP_URL", "https://monitor.example");
}

/** Inngest's X-Inngest-Signature for a body: HMAC-SHA256 of body and timestamp under the key without its prefix. */
function inngestSignature(body: string): string {
  const timestamp = Math.round(Date.now() / 1000);
  const key = SIGNING_KEY.replace(/^signkey-\w+-/, "");
  return `t=${timestamp}&s=${createHmac("sha256", key)
    .update(body + timestamp)
    .digest("hex")}`;
}

const request = (init: { method?: string; headers?: Record<string, string> } = {}) =>
  new NextRequest("http://evil.example/api/inngest", { method: init.method ?? "GET", headers: { host: "evil.example", ...init.headers } });

// Inngest is loaded only in Inngest mode (docs/operations.md, "Production install").
describe("/api/inngest", () => {
  it("is not found outside Inngest mode", async () => {
    for (const name of ["INNGEST_EVENT_KEY", "INNGEST_SIGNING_KEY", "INNGEST_DEV"]) vi.stubEnv(name, "");
    const { GET } = await freshRoute();
    const response = await GET(request(), {});
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ success: false, error: "Not found" });
  });

  it("serves the functions in dev mode on a loopback APP_URL, loading inngest on its first request", async () => {
    vi.stubEnv("INNGEST_DEV", "1");
    vi.stubEnv("APP_URL", "http://127.0.0.1:3000");
    const { GET } = await freshRoute();
    const response = await GET(new NextRequest("http://127.0.0.1:3000/api/inngest"), {});
    expect(response.status).toBe(200);
    const body = (await response.json()) as { function_count?: number; mode?: string };
    expect(body.mode).toBe("dev");
    expect(body.function_count).toBeGreaterThan(5);
  });
});

describe("/api/inngest against a stranger (issue 39)", () => {
  it("an unsigned sync (PUT) is refused, and nothing is registered, whatever its Host", async () => {
    cloudMode();
    const { PUT } = await freshRoute();
    const response = await PUT(request({ method: "PUT", headers: { "x-forwarded-proto": "http" } }), {});
    expect(registered).toEqual([]);
    expect(response.status).toBe(401);
  });

  it("a signed sync registers APP_URL's address, not the request's Host", async () => {
    cloudMode();
    const { PUT } = await freshRoute();
    const response = await PUT(request({ method: "PUT", headers: { "x-inngest-signature": inngestSignature("") } }), {});
    expect(response.status).toBe(200);
    expect(registered).toEqual(["https://monitor.example/api/inngest"]);
  });

  it("an unsigned call to run a function is refused", async () => {
    cloudMode();
    const { POST } = await freshRoute();
    const response = await POST(
      new NextRequest("http://evil.example/api/inngest?fnId=exposure-monitor-drain-jobs&stepId=step", {
        method: "POST",
        headers: { host: "evil.example", "content-type": "application/json" },
        body: JSON.stringify({ event: { name: "app/jobs.due", data: {} }, events: [], steps: {}, ctx: { run_id: "r", attempt: 0 } }),
      }),
      {},
    );
    expect(response.status).toBe(401);
  });

  it("dev mode (unsigned calls) is refused at start unless APP_URL is a loopback address", async () => {
    vi.stubEnv("INNGEST_DEV", "1");
    for (const appUrl of ["https://monitor.example", "http://10.0.0.5:3000", "http://localhost.evil.example"]) {
      vi.stubEnv("APP_URL", appUrl);
      expect(checkConfig).toThrow(/INNGEST_DEV .* refused unless APP_URL is a loopback address/);
      // and the route, should a process start without the check, runs nothing
      const { POST } = await freshRoute();
      await expect(POST(request({ method: "POST" }), {})).rejects.toThrow(/INNGEST_DEV/);
    }
    for (const appUrl of ["http://localhost:3000", "http://127.0.0.1:3311", "http://[::1]:3000", "http://app.localhost"]) {
      vi.stubEnv("APP_URL", appUrl);
      expect(checkConfig).not.toThrow();
    }
    vi.stubEnv("INNGEST_DEV", "0");
    vi.stubEnv("APP_URL", "https://monitor.example");
    expect(checkConfig).not.toThrow();
  });
});
