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
/** The REST route (app/api/[...path]/route.ts): its dispatcher counts its requests under their templates. */
const REST_ROUTE_PAGE = "/api/[...path]";

/**
 * A function giving the route a path served by Next.js belongs to, as the build names it
 * (`/portal/breaches/[breachId]`), so pages and route handlers are counted by route like REST
 * calls (docs/operations.md, "Metrics"); a path of no route is "unmatched". Undefined for the
 * REST route's paths, which the dispatcher counts.
 */
export function nextRouteLabeler(manifest: PageRoutesManifest): (path: string) => string | undefined {
  const staticPages = new Set((manifest.staticRoutes ?? []).map((route) => route.page));
  const dynamicRoutes = (manifest.dynamicRoutes ?? []).map((route) => ({ page: route.page, pattern: new RegExp(route.regex) }));
  return (path) => {
    if (path.startsWith("/_next/")) return NEXT_ASSETS_ROUTE;
    const trimmed = path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
    if (staticPages.has(trimmed)) return trimmed;
    const route = dynamicRoutes.find((candidate) => candidate.pattern.test(path));
    if (route) return route.page === REST_ROUTE_PAGE ? undefined : route.page;
    return UNMATCHED_ROUTE;
  };
}

/** Counts a request Next.js serves under `route` once its answer has been sent (scripts/serve.ts). */
export function countWhenSent(req: IncomingMessage, res: ServerResponse, route: string | undefined): void {
  if (route === undefined) return;
  const startedAt = performance.now();
  res.once("finish", () => observeHttpRequest(req.method ?? "GET", route, res.statusCode, startedAt));
}
