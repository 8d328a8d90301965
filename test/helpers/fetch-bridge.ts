import type { IncomingMessage, ServerResponse } from "node:http";
import { readBodyAtMost, sendNodeResponse } from "../../server/http/node-io";

export class UnreadableRequestError extends Error {}

/**
 * A Node request as a fetch `Request` with its body read into memory, at most `maxBodyBytes + 1`
 * bytes of it (readBodyAtMost). For the fetch-style handlers the tests serve on a Node server; the
 * production server hands REST calls to the dispatcher without fetch objects (server/http/rest-node.ts).
 */
export async function toFetchRequest(req: IncomingMessage, maxBodyBytes: number): Promise<Request> {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  const method = req.method ?? "GET";
  if (method === "GET" || method === "HEAD") {
    req.resume();
    return buildRequest(req.url, { method, headers });
  }
  const body = await readBodyAtMost(req, maxBodyBytes);
  return buildRequest(req.url, { method, headers, body: body as Uint8Array<ArrayBuffer> });
}

/** Throws UnreadableRequestError for what fetch cannot represent (a malformed target, CONNECT, TRACE). */
function buildRequest(target: string | undefined, init: RequestInit): Request {
  try {
    return new Request(new URL(target ?? "/", "http://localhost"), init);
  } catch (error) {
    throw new UnreadableRequestError(`unreadable request (${init.method} ${target}): ${String(error)}`);
  }
}

/** Writes a fetch `Response` to a Node response (sendNodeResponse), with `extraHeaders` first (the response's own win). */
export async function sendFetchResponse(
  req: IncomingMessage,
  res: ServerResponse,
  response: Response,
  extraHeaders: Record<string, string> = {},
): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(extraHeaders)) headers[name.toLowerCase()] = value;
  response.headers.forEach((value, key) => {
    headers[key] = value;
  });
  const setCookies = response.headers.getSetCookie();
  if (setCookies.length > 0) headers["set-cookie"] = setCookies;
  const body = response.status === 204 || response.status === 304 ? null : Buffer.from(await response.arrayBuffer());
  await sendNodeResponse(req, res, response.status, headers, body);
}
