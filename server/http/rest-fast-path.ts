/**
 * How the production server (scripts/serve.ts) reaches the REST dispatcher without Next.js's
 * request pipeline: the route module that Next.js loads publishes its dispatcher here, in a
 * process-wide slot, and the server calls it directly from then on (rest-node.ts). The server
 * never imports the dispatcher itself, so there is one copy of the service's modules in the
 * process: Next.js's.
 */
import type { RestDispatcher } from "./rest-call";
import { processSlot } from "../process-slot";

const dispatcher = processSlot<RestDispatcher>("rest-dispatcher");

/** The paths the REST handler answers in full: the versioned API and the unversioned legacy one. */
const REST_PREFIXES = ["/api/v1/", "/api/integrations/"];

export function publishRestDispatcher(dispatch: RestDispatcher): void {
  dispatcher.set(dispatch);
}

export function publishedRestDispatcher(): RestDispatcher | undefined {
  return dispatcher.get();
}

/**
 * Whether a request path is the REST API's in plain form. Paths Next.js would rewrite first
 * (percent-encoded, dot segments, backslashes, a trailing slash it redirects) stay with Next.js.
 */
export function isPlainRestPath(path: string): boolean {
  if (/[%\\]|\/\.|\/$/.test(path)) return false;
  return REST_PREFIXES.some((prefix) => path.startsWith(prefix));
}
