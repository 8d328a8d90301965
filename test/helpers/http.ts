import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export type FetchHandler = (request: Request) => Promise<Response>;

/**
 * Serves a fetch-style handler on a real HTTP server at 127.0.0.1 (an ephemeral port), so
 * tests exercise the REST layer over the wire as clients do.
 */
export async function serveOnLoopback(handler: FetchHandler): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const server: Server = createServer(async (req, res) => {
    try {
      const response = await handler(await toRequest(req));
      const headers: Record<string, string> = {};
      response.headers.forEach((value, key) => (headers[key] = value));
      res.writeHead(response.status, headers);
      res.end(Buffer.from(await response.arrayBuffer()));
    } catch (error) {
      res.writeHead(599, { "content-type": "text/plain" });
      res.end(`test server: handler threw: ${String(error)}`);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}

async function toRequest(req: IncomingMessage): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) value.forEach((v) => headers.append(key, v));
    else if (value !== undefined) headers.set(key, value);
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  return new Request(`http://${req.headers.host ?? "127.0.0.1"}${req.url ?? "/"}`, {
    method: req.method,
    headers,
    body: hasBody ? Buffer.concat(chunks) : undefined,
  });
}

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/** A small client for the REST API under test. `body` may be a raw string (sent as is). */
export function apiClient(baseUrl: string) {
  async function call<T = any>(
    method: string,
    path: string,
    options: { headers?: Record<string, string>; body?: unknown } = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    let body: string | undefined;
    if (options.body !== undefined) {
      body = typeof options.body === "string" ? options.body : JSON.stringify(options.body);
      headers["content-type"] ??= "application/json";
    }
    const response = await fetch(baseUrl + path, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text so the assertion shows it
    }
    return { status: response.status, headers: response.headers, body: parsed as T };
  }
  return {
    call,
    get: <T = any>(path: string, headers?: Record<string, string>) => call<T>("GET", path, { headers }),
    post: <T = any>(path: string, body?: unknown, headers?: Record<string, string>) => call<T>("POST", path, { body, headers }),
    patch: <T = any>(path: string, body?: unknown, headers?: Record<string, string>) => call<T>("PATCH", path, { body, headers }),
    delete: <T = any>(path: string, headers?: Record<string, string>) => call<T>("DELETE", path, { headers }),
  };
}
