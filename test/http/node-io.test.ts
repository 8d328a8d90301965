import { createServer, type IncomingMessage, type Server } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readBodyAtMost } from "../../server/http/node-io";
import { rawRequest } from "../helpers/raw-http";

const BODY_LIMIT = 100;

type Outcome = { body: Buffer } | { error: Error };

let server: Server;
let baseUrl: string;
/** Settles with what readBodyAtMost gave the next request the server receives. */
let nextOutcome: Promise<Outcome>;
let reportOutcome: (outcome: Outcome) => void;
/** Settles when the next request's headers have reached the handler. */
let nextArrival: Promise<void>;
let reportArrival: () => void;
/** How the handler reads; set per test. */
let read: (req: IncomingMessage) => Promise<Buffer> = (req) => readBodyAtMost(req, BODY_LIMIT);

function expectRequest() {
  nextOutcome = new Promise((resolve) => (reportOutcome = resolve));
  nextArrival = new Promise((resolve) => (reportArrival = resolve));
}

beforeAll(async () => {
  server = createServer(async (req, res) => {
    reportArrival();
    try {
      const body = await read(req);
      reportOutcome({ body });
      res.end(`read ${body.length}`);
    } catch (error) {
      reportOutcome({ error: error as Error });
      res.destroy();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe("readBodyAtMost", () => {
  it("reads a body sent in several chunks whole", async () => {
    expectRequest();
    const chunks = [Buffer.from('{"email":'), Buffer.from('"a@b.example"'), Buffer.from("}")];
    const response = await rawRequest(baseUrl, { method: "POST", headers: { "transfer-encoding": "chunked" }, chunks });
    expect(response.body.toString()).toBe("read 23");
    expect(await nextOutcome).toEqual({ body: Buffer.from('{"email":"a@b.example"}') });
  });

  it("gives an empty buffer for a request without a body", async () => {
    expectRequest();
    await rawRequest(baseUrl, { method: "GET" });
    expect(await nextOutcome).toEqual({ body: Buffer.alloc(0) });
  });

  it("keeps one byte beyond the limit, drains the rest, and the connection still answers", async () => {
    expectRequest();
    const chunks = Array.from({ length: 50 }, () => Buffer.alloc(1000, 120));
    const response = await rawRequest(baseUrl, { method: "POST", headers: { "transfer-encoding": "chunked" }, chunks });
    expect(response.body.toString()).toBe(`read ${BODY_LIMIT + 1}`);
    const outcome = await nextOutcome;
    expect("body" in outcome && outcome.body.equals(Buffer.alloc(BODY_LIMIT + 1, 120))).toBe(true);
  });

  it("rejects when the client goes away before the body ends", async () => {
    expectRequest();
    const socket = connect(Number(new URL(baseUrl).port), "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    socket.write('POST /x HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{"email":');
    await nextArrival; // the server is reading the body when the client disconnects
    socket.destroy();
    const outcome = await nextOutcome;
    // Node reports it as an "aborted" error; the reader passes that on.
    expect("error" in outcome && outcome.error.message).toBe("aborted");
  });

  it("answers at once for a body that was already read", async () => {
    expectRequest();
    read = async (req) => {
      await readBodyAtMost(req, BODY_LIMIT);
      return readBodyAtMost(req, BODY_LIMIT);
    };
    try {
      await rawRequest(baseUrl, { method: "POST", chunks: [Buffer.from("{}")], headers: { "content-length": "2" } });
      expect(await nextOutcome).toEqual({ body: Buffer.alloc(0) });
    } finally {
      read = (req) => readBodyAtMost(req, BODY_LIMIT);
    }
  });
});
