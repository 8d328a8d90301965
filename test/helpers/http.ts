import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { MAX_REST_BODY_BYTES } from "../../server/api/rest/dispatcher";
import { sendFetchResponse, toFetchRequest } from "./fetch-bridge";
import type { RestDispatcher } from "../../server/http/rest-call";
import { serveRestRequest } from "../../server/http/rest-node";

type FetchHandler = (request: Request) => Promise<Response>;

/**
 * Serves a fetch-style handler (the Next.js route handlers' shape) on a real HTTP server at
 * 127.0.0.1, an ephemeral port, through ./fetch-bridge.ts.
 */
export function serveOnLoopback(handler: FetchHandler): Promise<LoopbackServer> {
  return listenOnLoopback(async (req, res) => {
    await sendFetchResponse(req, res, await handler(await toFetchRequest(req, MAX_REST_BODY_BYTES)));
  });
}

/**
 * Serves the REST dispatcher as the production server serves plain REST paths (scripts/serve.ts,
 * server/http/rest-node.ts), so tests exercise the REST layer over the wire as clients reach it.
 */
export function serveRestOnLoopback(dispatch: RestDispatcher): Promise<LoopbackServer> {
  return listenOnLoopback((req, res) => serveRestRequest(dispatch, req, res));
}

export interface LoopbackServer {
  baseUrl: string;
  close(): Promise<void>;
}

/** A Node request handler on a real HTTP server at 127.0.0.1, an ephemeral port. */
export async function listenOnLoopback(serve: (req: IncomingMessage, res: ServerResponse) => Promise<void>): Promise<LoopbackServer> {
  const server: Server = createServer(async (req, res) => {
    try {
      await serve(req, res);
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
    put: <T = any>(path: string, body?: unknown, headers?: Record<string, string>) => call<T>("PUT", path, { body, headers }),
    delete: <T = any>(path: string, headers?: Record<string, string>) => call<T>("DELETE", path, { headers }),
  };
}
