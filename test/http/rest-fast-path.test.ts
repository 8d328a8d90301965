import { describe, expect, it } from "vitest";
import { isPlainRestPath } from "../../server/http/rest-fast-path";
import { headerResolverFromBuild, type RoutesManifest } from "../../server/http/route-headers";

/** The parts of .next/routes-manifest.json that `next build` (16.x) wrote for this next.config.js. */
const BUILT_MANIFEST: RoutesManifest = {
  basePath: "",
  redirects: [{ source: "/:path+/", internal: true }],
  headers: [
    {
      source: "/:path*",
      headers: [
        { key: "X-Content-Type-Options", value: "nosniff" },
        { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
        { key: "X-Frame-Options", value: "DENY" },
      ],
      regex: "^(?:/((?:[^/]+?)(?:/(?:[^/]+?))*))?(?:/)?$",
    },
    {
      source: "/auth/:path*",
      headers: [{ key: "Referrer-Policy", value: "no-referrer" }],
      regex: "^/auth(?:/((?:[^/]+?)(?:/(?:[^/]+?))*))?(?:/)?$",
    },
  ],
  rewrites: { beforeFiles: [], afterFiles: [], fallback: [] },
};

/** The other two manifests as `next build` wrote them: no middleware (proxy). */
const NO_MIDDLEWARE = { middleware: { middleware: {} }, functions: { functions: {} } };

describe("headers from the build's manifests", () => {
  it("gives a path every matching rule's headers, the later rule winning", () => {
    const headersFor = headerResolverFromBuild({ routes: BUILT_MANIFEST, ...NO_MIDDLEWARE });
    if (typeof headersFor !== "function") throw new Error(headersFor.unsupported);
    expect(headersFor("/api/v1/integrations/breach/check")).toEqual({
      "x-content-type-options": "nosniff",
      "referrer-policy": "strict-origin-when-cross-origin",
      "x-frame-options": "DENY",
    });
    expect(headersFor("/auth/sign-in")["referrer-policy"]).toBe("no-referrer");
  });

  it("leaves the REST API to Next.js when the config does more than add headers", () => {
    const cases: [Partial<RoutesManifest>, string][] = [
      [{ basePath: "/app" }, "basePath is set"],
      [{ rewrites: { beforeFiles: [{ source: "/a", destination: "/b" }] } }, "next.config.js has rewrites"],
      [{ rewrites: [{ source: "/a", destination: "/b" }] }, "next.config.js has rewrites"],
      [{ redirects: [{ source: "/old" }] }, "next.config.js redirects /old"],
      [
        { headers: [{ source: "/x", regex: "^/x$", headers: [], has: [{ type: "header", key: "a" }] }] },
        "the headers of /x depend on the request",
      ],
    ];
    for (const [change, reason] of cases) {
      expect(headerResolverFromBuild({ routes: { ...BUILT_MANIFEST, ...change }, ...NO_MIDDLEWARE })).toEqual({ unsupported: reason });
    }
  });

  it("leaves the REST API to Next.js when a middleware or proxy runs on requests", () => {
    const unsupported = { unsupported: "a middleware (proxy) runs on requests" };
    const edgeMiddleware = { middleware: { middleware: { "/": { name: "middleware" } } } };
    expect(headerResolverFromBuild({ routes: BUILT_MANIFEST, ...NO_MIDDLEWARE, ...edgeMiddleware })).toEqual(unsupported);
    const nodeProxy = { functions: { functions: { "/_middleware": { runtime: "nodejs" } } } };
    expect(headerResolverFromBuild({ routes: BUILT_MANIFEST, ...NO_MIDDLEWARE, ...nodeProxy })).toEqual(unsupported);
  });

  it("leaves the REST API to Next.js when the build does not say whether a middleware runs", () => {
    const unknown = { unsupported: "the build has no middleware or functions manifest" };
    expect(headerResolverFromBuild({ routes: BUILT_MANIFEST, ...NO_MIDDLEWARE, middleware: undefined })).toEqual(unknown);
    expect(headerResolverFromBuild({ routes: BUILT_MANIFEST, ...NO_MIDDLEWARE, functions: undefined })).toEqual(unknown);
  });
});

describe("which paths the production server hands to the REST handler itself", () => {
  it("takes plain paths of the versioned and the legacy API", () => {
    expect(isPlainRestPath("/api/v1/integrations/breach/check")).toBe(true);
    expect(isPlainRestPath("/api/v1/health")).toBe(true);
    expect(isPlainRestPath("/api/integrations/partner/plans")).toBe(true);
  });

  it("leaves everything else, and paths Next.js would normalize or redirect first, to Next.js", () => {
    for (const path of [
      "/",
      "/admin",
      "/api/trpc/x",
      "/api/auth/session",
      "/api/v1",
      "/api/v1/health/",
      "/api/v1/../admin",
      "/api/v1/%2e%2e/admin",
      "/api/v1\\health",
      "/api/v10/health",
    ]) {
      expect(isPlainRestPath(path), path).toBe(false);
    }
  });
});
