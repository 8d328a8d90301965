import { request as httpRequest, type IncomingHttpHeaders } from "node:http";

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/**
 * One request with node:http as the client: nothing is decompressed or added behind the test's
 * back (fetch would ask for gzip and unpack it). `chunks` are written one by one, so a request
 * without a content-length header goes out chunked. `localAddress` is the address the request
 * comes from (any 127.0.0.x reaches a server on 127.0.0.1 as a client of its own).
 */
export function rawRequest(
  baseUrl: string,
  options: { method?: string; path?: string; headers?: Record<string, string | string[]>; chunks?: Buffer[]; localAddress?: string },
): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        hostname,
        port,
        method: options.method ?? "GET",
        path: options.path ?? "/",
        headers: options.headers,
        localAddress: options.localAddress,
      },
      (res) => {
        const parts: Buffer[] = [];
        res.on("data", (part: Buffer) => parts.push(part));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(parts) }));
      },
    );
    req.on("error", reject);
    for (const chunk of options.chunks ?? []) req.write(chunk);
    req.end();
  });
}
