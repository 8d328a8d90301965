import type { HeaderSource } from "./headers";

/**
 * A REST call as the dispatcher (server/api/rest/dispatcher.ts) needs it, whichever server received
 * it: the Next.js route adapts a fetch `Request` (fetchRestHandler), the production server a Node
 * request (rest-node.ts).
 */
export interface RestRequest {
  method: string;
  /** The URL's path, already normalized (no dot segments); segments may be percent-encoded. */
  path: string;
  /** The query string, with or without its leading "?". */
  search: string;
  headers: HeaderSource;
  /** The body's bytes, or undefined as soon as there are more than `limit` (the rest is not kept). */
  readBody(limit: number): Promise<Uint8Array | undefined>;
}

export interface RestResponse {
  status: number;
  headers: Record<string, string>;
  /** JSON text, or the bytes of an answer that is not JSON (a PDF report). */
  body: string | Uint8Array | null;
}

export type RestDispatcher = (request: RestRequest) => Promise<RestResponse>;
