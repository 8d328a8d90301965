import type { IncomingMessage, ServerResponse } from "node:http";
import { promisify } from "node:util";
import { gzip } from "node:zlib";

const gzipAsync = promisify(gzip);

/** Bodies below this size go out uncompressed (the threshold Next.js's compression uses). */
const COMPRESS_FROM_BYTES = 1024;

export class UnreadableRequestError extends Error {}

/**
 * A Node request as a fetch `Request` with its body read into memory, at most `maxBodyBytes + 1`
 * bytes of it: what lies beyond is drained and dropped, so a handler that checks the size still
 * sees that the body was too large without the process holding all of it.
 */
export async function toFetchRequest(req: IncomingMessage, maxBodyBytes: number): Promise<Request> {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  const method = req.method ?? "GET";
  if (method === "GET" || method === "HEAD") {
    req.resume();
    return buildRequest(req.url, { method, headers });
  }
  const chunks: Buffer[] = [];
  let kept = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    if (kept > maxBodyBytes) continue;
    const part = chunk.length > maxBodyBytes + 1 - kept ? chunk.subarray(0, maxBodyBytes + 1 - kept) : chunk;
    chunks.push(part);
    kept += part.length;
  }
  return buildRequest(req.url, { method, headers, body: (chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)) as Uint8Array<ArrayBuffer> });
}

/** Throws UnreadableRequestError for what fetch cannot represent (a malformed target, CONNECT, TRACE). */
function buildRequest(target: string | undefined, init: RequestInit): Request {
  try {
    return new Request(new URL(target ?? "/", "http://localhost"), init);
  } catch (error) {
    throw new UnreadableRequestError(`unreadable request (${init.method} ${target}): ${String(error)}`);
  }
}

/**
 * Writes a fetch `Response` to a Node response, with `extraHeaders` first (the response's own win),
 * gzip-compressed when the client accepts it and the body is worth it. Node leaves the body out
 * of answers to HEAD by itself.
 */
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

  if (response.status === 204 || response.status === 304) {
    res.writeHead(response.status, headers); // no body, and so no Content-Length (RFC 9110 8.6)
    res.end();
    return;
  }
  let body: Buffer = Buffer.from(await response.arrayBuffer());
  if (body.length >= COMPRESS_FROM_BYTES && !headers["content-encoding"]) {
    headers["vary"] = headers["vary"] ? `${headers["vary"]}, Accept-Encoding` : "Accept-Encoding";
    if (acceptsGzip(req.headers["accept-encoding"])) {
      body = await gzipAsync(body);
      headers["content-encoding"] = "gzip";
    }
  }
  headers["content-length"] = String(body.length);
  res.writeHead(response.status, headers);
  res.end(body);
}

function acceptsGzip(acceptEncoding: string | undefined): boolean {
  if (!acceptEncoding) return false;
  return acceptEncoding.split(",").some((entry) => {
    const [coding, ...params] = entry.trim().toLowerCase().split(";");
    if (coding !== "gzip" && coding !== "*") return false;
    const quality = params.map((param) => param.trim()).find((param) => param.startsWith("q="));
    return quality === undefined || Number(quality.slice(2)) > 0;
  });
}
