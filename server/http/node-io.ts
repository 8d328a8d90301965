import type { IncomingMessage, ServerResponse } from "node:http";
import { promisify } from "node:util";
import { gzip } from "node:zlib";

const gzipAsync = promisify(gzip);

/** Bodies below this size go out uncompressed (the threshold Next.js's compression uses). */
const COMPRESS_FROM_BYTES = 1024;

/**
 * A Node request's body, at most `maxBodyBytes + 1` bytes of it: what lies beyond is drained and
 * dropped, so a handler that checks the size still sees that the body was too large without the
 * process holding all of it. Rejects when the request ends early (the client went away).
 * Read from the stream's events: an async iterator adds its own listeners, end-of-stream tracking
 * and ticks to every request (measured: docs/measures.md, "Choices in the code").
 */
export function readBodyAtMost(req: IncomingMessage, maxBodyBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let kept = 0;
    const onData = (chunk: Buffer) => {
      if (kept > maxBodyBytes) return;
      const part = chunk.length > maxBodyBytes + 1 - kept ? chunk.subarray(0, maxBodyBytes + 1 - kept) : chunk;
      chunks.push(part);
      kept += part.length;
    };
    const settle = (error?: Error) => {
      req.off("data", onData).off("end", onEnd).off("error", settle).off("close", onClose);
      if (error) reject(error);
      else resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    };
    const onEnd = () => settle();
    const onClose = () => settle(new Error("the request closed before its body ended"));
    if (req.readableEnded) return settle();
    if (req.destroyed) return onClose();
    req.on("data", onData).once("end", onEnd).once("error", settle).once("close", onClose);
  });
}

/**
 * Writes an answer to a Node response (header names lower-case, a Set-Cookie as a list),
 * gzip-compressed when the client accepts it and the body is worth it. 204 and 304 go out
 * without a body or Content-Length; Node leaves the body out of answers to HEAD by itself.
 */
export async function sendNodeResponse(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  headers: Record<string, string | string[]>,
  body: Buffer | null,
): Promise<void> {
  if (status === 204 || status === 304 || body === null) {
    res.writeHead(status, headers); // no body, and so no Content-Length (RFC 9110 8.6)
    res.end();
    return;
  }
  if (body.length >= COMPRESS_FROM_BYTES && !headers["content-encoding"]) {
    headers["vary"] = headers["vary"] ? `${headers["vary"]}, Accept-Encoding` : "Accept-Encoding";
    if (acceptsGzip(req.headers["accept-encoding"])) {
      body = await gzipAsync(body);
      headers["content-encoding"] = "gzip";
    }
  }
  headers["content-length"] = String(body.length);
  res.writeHead(status, headers);
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
