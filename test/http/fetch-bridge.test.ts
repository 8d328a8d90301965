import { createServer, type Server } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendFetchResponse, toFetchRequest, UnreadableRequestError } from "../helpers/fetch-bridge";
import { rawRequest } from "../helpers/raw-http";

const BODY_LIMIT = 1000;

interface Seen {
  method: string;
  url: string;
  headers: Headers;
  body: Buffer;
}

let server: Server;
let port: number;
let lastSeen: Seen | undefined;
/** What the handler answers; set per test. */
let answer: (request: Request) => Response = () => new Response("ok");

beforeAll(async () => {
  server = createServer(async (req, res) => {
    try {
      const request = await toFetchRequest(req, BODY_LIMIT);
      lastSeen = {
        method: request.method,
        url: request.url,
        headers: request.headers,
        body: Buffer.from(await request.clone().arrayBuffer()),
      };
      await sendFetchResponse(req, res, answer(request), { "X-Frame-Options": "DENY", "Cache-Control": "public" });
    } catch (error) {
      res.writeHead(error instanceof UnreadableRequestError ? 400 : 500);
      res.end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const send = (options: Parameters<typeof rawRequest>[1]) => rawRequest(`http://127.0.0.1:${port}`, options);

describe("toFetchRequest", () => {
  it("passes method, path, query and every header value through", async () => {
    answer = () => new Response("ok");
    await send({ method: "DELETE", path: "/api/v1/x?a=1&a=2", headers: { "X-Multi": ["one", "two"], "SW-API-KEY": "k" } });
    expect(lastSeen!.method).toBe("DELETE");
    expect(new URL(lastSeen!.url).pathname + new URL(lastSeen!.url).search).toBe("/api/v1/x?a=1&a=2");
    expect(lastSeen!.headers.get("x-multi")).toBe("one, two");
    expect(lastSeen!.headers.get("sw-api-key")).toBe("k");
  });

  it("reads a body sent in chunks without a length", async () => {
    answer = () => new Response("ok");
    const chunks = [Buffer.from('{"a":'), Buffer.from('"b"}')];
    const response = await send({ method: "POST", headers: { "transfer-encoding": "chunked" }, chunks });
    expect(response.status).toBe(200);
    expect(lastSeen!.body.toString()).toBe('{"a":"b"}');
  });

  it("keeps one byte beyond the limit of a larger body, drops the rest and still answers", async () => {
    answer = () => new Response("too large", { status: 413 });
    const chunks = Array.from({ length: 300 }, (_, i) => Buffer.alloc(10_000, 97 + (i % 26)));
    const response = await send({ method: "POST", headers: { "transfer-encoding": "chunked" }, chunks });
    expect(response.status).toBe(413);
    expect(lastSeen!.body.length).toBe(BODY_LIMIT + 1);
    expect(lastSeen!.body.equals(Buffer.alloc(BODY_LIMIT + 1, 97))).toBe(true);
  });

  it("refuses what a fetch Request cannot carry as unreadable", async () => {
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, "127.0.0.1", () => socket.end("TRACE / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"));
      let text = "";
      socket.on("data", (part) => (text += part.toString()));
      socket.on("end", () => resolve(text));
      socket.on("error", reject);
    });
    expect(raw.startsWith("HTTP/1.1 400")).toBe(true);
  });
});

describe("sendFetchResponse", () => {
  const large = JSON.stringify({ items: Array.from({ length: 200 }, (_, i) => ({ id: i, name: `item ${i}` })) });

  it("gzips a body of 1 KiB or more for a client that accepts gzip, and says it varies", async () => {
    answer = () => new Response(large, { headers: { "content-type": "application/json" } });
    const response = await send({ headers: { "accept-encoding": "br, gzip;q=0.8" } });
    expect(response.headers["content-encoding"]).toBe("gzip");
    expect(response.headers.vary).toBe("Accept-Encoding");
    expect(Number(response.headers["content-length"])).toBe(response.body.length);
    expect(response.body.length).toBeLessThan(large.length);
    expect(gunzipSync(response.body).toString()).toBe(large);
  });

  it("sends the body as is to a client that does not accept gzip or refuses it", async () => {
    answer = () => new Response(large);
    for (const acceptEncoding of [undefined, "gzip;q=0", "identity"]) {
      const response = await send({ headers: acceptEncoding ? { "accept-encoding": acceptEncoding } : {} });
      expect(response.headers["content-encoding"]).toBeUndefined();
      expect(response.headers.vary).toBe("Accept-Encoding");
      expect(response.body.toString()).toBe(large);
    }
  });

  it("leaves small bodies uncompressed and adds to an existing Vary", async () => {
    answer = () => new Response("small", { headers: { vary: "Origin" } });
    const small = await send({ headers: { "accept-encoding": "gzip" } });
    expect(small.headers["content-encoding"]).toBeUndefined();
    expect(small.headers.vary).toBe("Origin");
    answer = () => new Response(large, { headers: { vary: "Origin" } });
    expect((await send({ headers: { "accept-encoding": "gzip" } })).headers.vary).toBe("Origin, Accept-Encoding");
  });

  it("adds the extra headers, the response's own winning, and keeps every Set-Cookie", async () => {
    const headers = new Headers({ "cache-control": "no-store" });
    headers.append("set-cookie", "a=1; Path=/");
    headers.append("set-cookie", "b=2; Path=/");
    answer = () => new Response("ok", { status: 201, headers });
    const response = await send({});
    expect(response.status).toBe(201);
    expect(response.headers["x-frame-options"]).toBe("DENY");
    expect(response.headers["cache-control"]).toBe("no-store");
    expect(response.headers["set-cookie"]).toEqual(["a=1; Path=/", "b=2; Path=/"]);
  });

  it("sends no body and no Content-Length with 204", async () => {
    answer = () => new Response(null, { status: 204, headers: { allow: "GET, POST" } });
    const response = await send({ method: "OPTIONS" });
    expect(response.status).toBe(204);
    expect(response.headers.allow).toBe("GET, POST");
    expect(response.headers["content-length"]).toBeUndefined();
    expect(response.body.length).toBe(0);
  });

  it("answers HEAD with the headers and no body", async () => {
    answer = () => new Response("twelve bytes");
    const response = await send({ method: "HEAD" });
    expect(response.status).toBe(200);
    expect(response.headers["content-length"]).toBe("12");
    expect(response.body.length).toBe(0);
  });
});
