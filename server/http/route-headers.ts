/**
 * The response headers next.config.js adds to a path, read from the build's manifests (.next/),
 * for the REST answers the production server sends without Next.js.
 */
interface HeaderRule {
  source: string;
  regex: string;
  headers: { key: string; value: string }[];
  has?: unknown[];
  missing?: unknown[];
}

export interface RoutesManifest {
  basePath?: string;
  headers?: HeaderRule[];
  redirects?: { source: string; internal?: boolean }[];
  rewrites?: unknown[] | { beforeFiles?: unknown[]; afterFiles?: unknown[]; fallback?: unknown[] };
}

/** What `next build` wrote: routes-manifest.json, server/middleware-manifest.json, server/functions-config-manifest.json. */
export interface BuildManifests {
  routes: RoutesManifest;
  /** Undefined when the build has no such file: then whether a middleware runs is unknown. */
  middleware: { middleware?: Record<string, unknown> } | undefined;
  functions: { functions?: Record<string, unknown> } | undefined;
}

export type HeaderResolver = (path: string) => Record<string, string>;

/**
 * A function giving a path's headers (names in lower case), rules applied in order (a later
 * rule's value wins, as in Next.js), or the reason the build does more than add headers, which
 * only Next.js can follow (a middleware or proxy, a base path, rewrites, redirects of its own,
 * conditional headers): then Next.js serves all.
 */
export function headerResolverFromBuild(build: BuildManifests): HeaderResolver | { unsupported: string } {
  if (!build.middleware || !build.functions) return { unsupported: "the build has no middleware or functions manifest" };
  if (Object.keys(build.middleware.middleware ?? {}).length > 0 || build.functions.functions?.["/_middleware"]) {
    return { unsupported: "a middleware (proxy) runs on requests" };
  }
  const manifest = build.routes;
  if (manifest.basePath) return { unsupported: "basePath is set" };
  const rewrites = Array.isArray(manifest.rewrites)
    ? manifest.rewrites
    : [...(manifest.rewrites?.beforeFiles ?? []), ...(manifest.rewrites?.afterFiles ?? []), ...(manifest.rewrites?.fallback ?? [])];
  if (rewrites.length > 0) return { unsupported: "next.config.js has rewrites" };
  const redirect = manifest.redirects?.find((rule) => !rule.internal);
  if (redirect) return { unsupported: `next.config.js redirects ${redirect.source}` };
  const conditional = manifest.headers?.find((rule) => rule.has?.length || rule.missing?.length);
  if (conditional) return { unsupported: `the headers of ${conditional.source} depend on the request` };

  const rules = (manifest.headers ?? []).map((rule) => ({
    pattern: new RegExp(rule.regex),
    headers: rule.headers.map(({ key, value }) => [key.toLowerCase(), value] as const),
  }));
  return (path) => {
    const headers: Record<string, string> = {};
    for (const rule of rules) {
      if (!rule.pattern.test(path)) continue;
      for (const [name, value] of rule.headers) headers[name] = value;
    }
    return headers;
  };
}
