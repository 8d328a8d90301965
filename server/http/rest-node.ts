import type { IncomingMessage, ServerResponse } from "node:http";
import { log } from "../log";
import { nodeHeaderSource } from "./headers";
import { readBodyAtMost, sendNodeResponse } from "./node-io";
import type { RestDispatcher, RestRequest } from "./rest-call";

/**
 * Serves one REST call from a Node server straight through the dispatcher, with no fetch
 * `Request`/`Response` in between (the production server's shortcut, scripts/serve.ts, and the
 * tests' REST servers). `extraHeaders` go out first; the dispatcher's own win. The target must be
 * a plain path (isPlainRestPath): nothing here decodes or normalizes it.
 */
export async function serveRestRequest(
  dispatch: RestDispatcher,
  req: IncomingMessage,
  res: ServerResponse,
  extraHeaders: Record<string, string> = {},
): Promise<void> {
  const { path, search } = splitTarget(req.url);
  const request: RestRequest = {
    method: req.method ?? "GET",
    path,
    search,
    headers: nodeHeaderSource(req.headers),
    readBody: async (limit) => {
      const body = await readBodyAtMost(req, limit);
      return body.length > limit ? undefined : body;
    },
  };
  const headers: Record<string, string> = {};
  for (const name in extraHeaders) headers[name.toLowerCase()] = extraHeaders[name]!;
  try {
    const answer = await dispatch(request);
    for (const name in answer.headers) headers[name.toLowerCase()] = answer.headers[name]!;
    req.resume(); // a body the call did not need is drained, so the connection can serve the next one
    await sendNodeResponse(req, res, answer.status, headers, answer.body === null ? null : Buffer.from(answer.body));
  } catch (error) {
    if (res.headersSent || req.socket.destroyed) {
      res.destroy();
      return;
    }
    log.error("REST request failed outside the handler", { method: req.method, error });
    headers["content-type"] = "application/json; charset=utf-8";
    await sendNodeResponse(req, res, 500, headers, Buffer.from(JSON.stringify({ success: false, error: "Internal server error" })));
  }
}

/** A request target's path and query string (with its "?"), as they stand: nothing decoded or normalized. */
export function splitTarget(target = "/"): { path: string; search: string } {
  const queryAt = target.indexOf("?");
  return queryAt === -1 ? { path: target, search: "" } : { path: target.slice(0, queryAt), search: target.slice(queryAt) };
}
