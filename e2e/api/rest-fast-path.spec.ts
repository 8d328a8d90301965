import { gunzipSync } from "node:zlib";
import { expect, test } from "@playwright/test";
import { rawRequest } from "../../test/helpers/raw-http";
import { partnerHeaders } from "../demo";

/**
 * The production server answers REST calls without Next.js's request pipeline once the REST route
 * is loaded (scripts/serve.ts). What clients see must not change: the config's headers, gzip,
 * HEAD, Next.js's own redirects, the size limit.
 */
test("REST answers carry the API's security headers and none of Next.js's page-routing ones", async ({ baseURL }) => {
  await rawRequest(baseURL!, { path: "/api/v1/health" }); // the first call may load the route through Next.js
  const response = await rawRequest(baseURL!, { path: "/api/v1/health" });
  expect(response.status).toBe(200);
  expect(JSON.parse(response.body.toString())).toEqual({ success: true, status: "ok", database: "ok" });
  expect(response.headers["x-content-type-options"]).toBe("nosniff");
  expect(response.headers["x-frame-options"]).toBe("DENY");
  expect(response.headers["content-security-policy"]).toBe("default-src 'none'; frame-ancestors 'none'");
  expect(response.headers["referrer-policy"]).toBeUndefined();
  expect(response.headers["permissions-policy"]).toBeUndefined();
  expect(response.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  expect(response.headers.vary ?? "").not.toContain("rsc");
});

test("large REST answers are gzipped for clients that accept it", async ({ baseURL }) => {
  const path = "/api/v1/integrations/partner/plans";
  const plain = await rawRequest(baseURL!, { path, headers: partnerHeaders() });
  const zipped = await rawRequest(baseURL!, { path, headers: { ...partnerHeaders(), "accept-encoding": "gzip" } });
  expect(plain.body.length).toBeGreaterThanOrEqual(1024);
  expect(plain.headers["content-encoding"]).toBeUndefined();
  expect(zipped.headers["content-encoding"]).toBe("gzip");
  expect(zipped.headers.vary).toContain("Accept-Encoding");
  expect(JSON.parse(gunzipSync(zipped.body).toString())).toEqual(JSON.parse(plain.body.toString()));
});

test("HEAD answers without a body; a trailing slash is still redirected by Next.js", async ({ baseURL }) => {
  const head = await rawRequest(baseURL!, { method: "HEAD", path: "/api/v1/health" });
  expect(head.status).toBe(200);
  expect(head.body.length).toBe(0);
  const slash = await rawRequest(baseURL!, { path: "/api/v1/health/" });
  expect(slash.status).toBe(308);
  expect(slash.headers.location).toBe("/api/v1/health");
});

test("a body over the limit sent without a length is refused with 413 in the envelope", async ({ baseURL }) => {
  const chunks = Array.from({ length: 40 }, () => Buffer.alloc(64 * 1024, " "));
  const response = await rawRequest(baseURL!, {
    method: "POST",
    path: "/api/v1/integrations/breach/check",
    headers: { ...partnerHeaders(), "content-type": "application/json", "transfer-encoding": "chunked" },
    chunks,
  });
  expect(response.status).toBe(413);
  expect(JSON.parse(response.body.toString())).toEqual({ success: false, error: "Request body too large (limit 1000000 bytes)" });
});
