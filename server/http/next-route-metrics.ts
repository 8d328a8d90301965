import type { IncomingMessage, ServerResponse } from "node:http";
import { observeHttpRequest, UNMATCHED_ROUTE } from "../metrics/registry";

interface ManifestRoute {
  page: string;
  regex: string;
}

/** The part of the build's routes-manifest.json that lists the app's routes. */
export interface PageRoutesManifest {
  staticRoutes?: ManifestRoute[];
  dynamicRoutes?: ManifestRoute[];
}

/** The route label of Next.js's build assets (/_next/static/..., /_next/image). */
export const NEXT_ASSETS_ROUTE = "/_next";

/**
 * A function giving the route a path served by Next.js belongs to, as the build names it
 * (`/portal/breaches/[id]`), so pages and route handlers are counted by route like REST calls
 * (docs/operations.md, "Metrics"); a path of no route is counted as "unmatched".
 */
export function nextRouteLabeler(manifest: PageRoutesManifest): (path: string) => string {
  const staticPages = new Set((manifest.staticRoutes ?? []).map((route) => route.page));
  const dynamicRoutes = (manifest.dynamicRoutes ?? []).map((route) => ({ page: route.page, pattern: new RegExp(route.regex) }));
  return (path) => {
    if (path.startsWith("/_next/")) return NEXT_ASSETS_ROUTE;
    const trimmed = path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
    if (staticPages.has(trimmed)) return trimmed;
    for (const route of dynamicRoutes) if (route.pattern.test(path)) return route.page;
    return UNMATCHED_ROUTE;
  };
}

/** Counts a request Next.js serves when its answer has been sent (scripts/serve.ts). */
export function countWhenSent(req: IncomingMessage, res: ServerResponse, route: string): void {
  const startedAt = performance.now();
  res.once("finish", () => observeHttpRequest(req.method ?? "GET", route, res.statusCode, startedAt));
}
