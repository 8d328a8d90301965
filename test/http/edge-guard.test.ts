import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import {
  acceptRequestTarget,
  BREACH_DATA_UPLOAD_LIMIT,
  DOT_SEGMENTS_REFUSED,
  guardRequest,
  readRequestTarget,
} from "../../server/http/edge-guard";
import { isPlainRestPath } from "../../server/http/rest-fast-path";
import { rawRequest } from "../helpers/raw-http";

/**
 * The production server's guard (server/http/edge-guard.ts) in front of a real Node server whose
 * handler reports what reached it; scripts/serve.ts puts it in front of Next.js and the REST
 * dispatcher (tested on the real server in edge-server.test.ts).
 */
let server: Server | undefined;
const handled: { path: string; url: string; body: string; headers: IncomingMessage["headers"] }[] = [];

async function startGuarded(appUrl: string, inngestMode = false): Promise<string> {
  handled.length = 0;
  server = createServer(async (received, res) => {
    // As scripts/serve.ts does: the target first, then the guard.
    const path = acceptRequestTarget(received, res, appUrl);
    if (path === undefined) return;
    const guarded = await guardRequest(received, res, path, { appUrl, isRestPath: isPlainRestPath, inngestMode });
    if (!guarded) return;
    const { req, securityHeaders } = guarded;
    const parts: Buffer[] = [];
    for await (const part of req) parts.push(part as Buffer);
    handled.push({ path, url: req.url!, body: Buffer.concat(parts).toString(), headers: req.headers });
    res.writeHead(200, { ...securityHeaders, "content-type": "text/plain" });
    res.end("handled");
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A POST of `bytes` bytes with its Content-Length declared. */
const postDeclaring = (baseUrl: string, path: string, bytes: number) =>
  rawRequest(baseUrl, { method: "POST", path, headers: { "content-length": String(bytes) }, chunks: [Buffer.alloc(bytes)] });

afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

describe("the edge guard", () => {
  it("sends HSTS only when APP_URL is https", async () => {
    const http = await startGuarded("http://service.example");
    expect((await rawRequest(http, { path: "/admin" })).headers["strict-transport-security"]).toBeUndefined();
    await new Promise((resolve) => server!.close(resolve));
    const https = await startGuarded("https://service.example");
    expect((await rawRequest(https, { path: "/admin" })).headers["strict-transport-security"]).toBe("max-age=31536000");
    expect((await rawRequest(https, { path: "/api/v1/health" })).headers["strict-transport-security"]).toBe("max-age=31536000");
  });

  it("hands Next.js the page's nonce in the request's policy, a fresh one each time; REST answers get the API's policy", async () => {
    const baseUrl = await startGuarded("http://service.example");
    const first = await rawRequest(baseUrl, {
      path: "/portal",
      headers: { "content-security-policy": "script-src 'nonce-chosen-by-client'" },
    });
    const second = await rawRequest(baseUrl, { path: "/portal" });
    const policy = first.headers["content-security-policy"] as string;
    expect(policy).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{24}'/);
    expect(handled[0]!.headers["content-security-policy"]).toBe(policy);
    expect(second.headers["content-security-policy"]).not.toBe(policy);
    const rest = await rawRequest(baseUrl, { path: "/api/v1/health" });
    expect(rest.headers["content-security-policy"]).toBe("default-src 'none'; frame-ancestors 'none'");
  });

  it("returns the answer's security headers for the caller to send (none set on the answer), and puts them on its own refusals", async () => {
    const baseUrl = await startGuarded("https://service.example");
    const passed = await rawRequest(baseUrl, { path: "/api/v1/health" });
    expect(passed.status).toBe(200);
    expect(passed.headers["content-security-policy"]).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(passed.headers["strict-transport-security"]).toBe("max-age=31536000");
    const refused = await postDeclaring(baseUrl, "/api/v1/integrations/customer/onboard", 1_000_001);
    expect(refused.status).toBe(413);
    expect(refused.headers["content-security-policy"]).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(refused.headers["strict-transport-security"]).toBe("max-age=31536000");
    const pageRefused = await postDeclaring(baseUrl, "/api/unsubscribe", 65_537);
    expect(pageRefused.headers["content-security-policy"]).toMatch(/'nonce-/);
    expect((await rawRequest(baseUrl, { path: "/admin" })).headers["content-security-policy"]).toMatch(/'nonce-/);
    // Nothing set on the response by the guard itself: a caller that sends none sends none.
    const bare = createServer(async (received, res) => {
      const guarded = await guardRequest(received, res, "/api/v1/health", {
        appUrl: "https://service.example",
        isRestPath: isPlainRestPath,
      });
      res.end(JSON.stringify({ set: guarded ? res.getHeaderNames() : null }));
    });
    await new Promise<void>((resolve) => bare.listen(0, "127.0.0.1", resolve));
    const answer = await rawRequest(`http://127.0.0.1:${(bare.address() as AddressInfo).port}`, { path: "/api/v1/health" });
    await new Promise((resolve) => bare.close(resolve));
    expect(JSON.parse(answer.body.toString())).toEqual({ set: [] });
  });

  it("answers 413 to a declared Content-Length over the path's limit without reading the body, in the API's envelope", async () => {
    const baseUrl = await startGuarded("http://service.example");
    const answer = await postDeclaring(baseUrl, "/api/unsubscribe", 65_537);
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body.toString())).toEqual({ success: false, error: "Request body too large (limit 65536 bytes)" });
    expect(handled).toEqual([]);
  });

  it("cuts a chunked body at the limit (413, the handler never called) and hands on one within it, whole, with its length", async () => {
    const baseUrl = await startGuarded("http://service.example");
    const over = await rawRequest(baseUrl, {
      method: "POST",
      path: "/api/auth/callback/staff",
      chunks: [Buffer.alloc(40_000), Buffer.alloc(40_000)],
    });
    expect(over.status).toBe(413);
    expect(handled).toEqual([]);
    const within = await rawRequest(baseUrl, {
      method: "POST",
      path: "/api/auth/callback/staff",
      chunks: [Buffer.from("a=1&"), Buffer.from("b=2")],
    });
    expect(within.status).toBe(200);
    expect(handled).toMatchObject([{ path: "/api/auth/callback/staff", body: "a=1&b=2" }]);
    expect(handled[0]!.headers["content-length"]).toBe("7");
    expect(handled[0]!.headers["transfer-encoding"]).toBeUndefined();
  });

  it("lets a chunked breach-data upload stream through unread (its handler holds it to its limit), and refuses a declared length over 2 GiB", async () => {
    const baseUrl = await startGuarded("http://service.example");
    const streamed = await rawRequest(baseUrl, {
      method: "POST",
      path: "/api/breach-data/accounts",
      headers: { "sec-fetch-site": "same-origin" },
      chunks: [Buffer.alloc(600_000, 97), Buffer.alloc(600_000, 98)],
    });
    expect(streamed.status).toBe(200);
    expect(handled).toHaveLength(1);
    expect(handled[0]!.body).toHaveLength(1_200_000);
    expect(handled[0]!.headers["transfer-encoding"]).toBe("chunked");
    const declared = await rawRequest(baseUrl, {
      method: "POST",
      path: "/api/breach-data/accounts",
      headers: { "content-length": String(BREACH_DATA_UPLOAD_LIMIT + 1) },
      chunks: [Buffer.from("email,breach_name\n")],
    });
    expect(declared.status).toBe(413);
    expect(JSON.parse(declared.body.toString())).toEqual({
      success: false,
      error: `Request body too large (limit ${BREACH_DATA_UPLOAD_LIMIT} bytes)`,
    });
    expect(handled).toHaveLength(1);
  });

  it("refuses a state change from another site on any cookie path (a page's server action too), and only JSON at /api/trpc", async () => {
    const baseUrl = await startGuarded("http://service.example");
    const crossSite = { "sec-fetch-site": "cross-site" };
    for (const path of ["/admin/partners/new", "/api/auth/signout", "/auth/sign-out", "/portal/settings"]) {
      const answer = await rawRequest(baseUrl, { method: "POST", path, headers: { ...crossSite, "next-action": "abc" } });
      expect(answer.status, path).toBe(403);
    }
    const form = await rawRequest(baseUrl, {
      method: "POST",
      path: "/api/trpc/admin.webhooks.cycleSecret",
      headers: { "content-type": "multipart/form-data; boundary=x", "sec-fetch-site": "same-origin" },
      chunks: [Buffer.from("--x--\r\n")],
    });
    expect(form.status).toBe(415);
    expect(handled).toEqual([]);
    // Not cookie-authenticated: mail programs' one-click unsubscribe, REST, Inngest.
    for (const path of ["/api/unsubscribe?token=t", "/api/v1/integrations/customer/onboard", "/api/inngest"]) {
      expect((await rawRequest(baseUrl, { method: "POST", path, headers: crossSite })).status, path).toBe(200);
    }
    // Reads are never refused.
    expect((await rawRequest(baseUrl, { path: "/admin", headers: crossSite })).status).toBe(200);
  });
});

describe("the edge guard against path tricks (issue 39)", () => {
  it("refuses dot segments and backslashes, plain or percent-encoded, with 400 before any limit is chosen", async () => {
    const baseUrl = await startGuarded("http://service.example", true);
    for (const path of [
      "/api/inngest/../unsubscribe",
      "/api/inngest/%2e%2e/unsubscribe",
      "/api/inngest/.%2E/unsubscribe",
      "/api/inngest/..%2funsubscribe",
      "/api/inngest/./../api/unsubscribe",
      "/api/inngest%5c..%5cunsubscribe",
      "/api/inngest\\..\\unsubscribe",
      "/api/v1/..",
    ]) {
      const answer = await rawRequest(baseUrl, { method: "POST", path, chunks: [Buffer.alloc(70_000)] });
      expect(answer.status, path).toBe(400);
      expect(JSON.parse(answer.body.toString()), path).toEqual({ success: false, error: DOT_SEGMENTS_REFUSED });
    }
    expect(handled).toEqual([]);
    // Dots inside a segment are a name like any other.
    expect(readRequestTarget("/docs/a..b/.well?x=/../")).toEqual({ kind: "path", path: "/docs/a..b/.well", search: "?x=/../" });
  });

  it("gives /api/inngest its 32 MiB only in Inngest mode and only at that exact path", async () => {
    const twoMb = [Buffer.alloc(1024 * 1024), Buffer.alloc(1024 * 1024)];
    const notInngest = await startGuarded("http://service.example");
    for (const path of ["/api/inngest", "/api/inngest-x", "/api/inngest/more"]) {
      const answer = await rawRequest(notInngest, { method: "POST", path, chunks: twoMb });
      expect(answer.status, path).toBe(413);
      expect(JSON.parse(answer.body.toString()), path).toEqual({ success: false, error: "Request body too large (limit 1000000 bytes)" });
    }
    await new Promise((resolve) => server!.close(resolve));
    const inngest = await startGuarded("http://service.example", true);
    expect((await rawRequest(inngest, { method: "POST", path: "/api/inngest?fnId=f", chunks: twoMb })).status).toBe(200);
    expect((await rawRequest(inngest, { method: "POST", path: "/api/inngest-x", chunks: twoMb })).status).toBe(413);
  });

  it("answers OPTIONS * itself, and takes an absolute-form target as its path with the target's host", async () => {
    const baseUrl = await startGuarded("http://service.example");
    const asterisk = await rawRequest(baseUrl, { method: "OPTIONS", path: "*" });
    expect(asterisk.status).toBe(204);
    expect(asterisk.headers.allow).toBe("GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS");
    expect((await rawRequest(baseUrl, { method: "GET", path: "*" })).status).toBe(400);

    const absolute = await rawRequest(baseUrl, {
      method: "POST",
      path: "http://service.example/api/unsubscribe?token=t",
      chunks: [Buffer.from("List-Unsubscribe=One-Click")],
    });
    expect(absolute.status).toBe(200);
    expect(handled).toMatchObject([{ path: "/api/unsubscribe", url: "/api/unsubscribe?token=t", body: "List-Unsubscribe=One-Click" }]);
    expect(handled[0]!.headers.host).toBe("service.example");
    expect((await rawRequest(baseUrl, { method: "POST", path: "http://service.example/api/inngest/../unsubscribe" })).status).toBe(400);
    expect((await rawRequest(baseUrl, { method: "POST", path: "ftp://service.example/x" })).status).toBe(400);
    expect(handled).toHaveLength(1);
  });
});
