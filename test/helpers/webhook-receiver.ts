import { createHmac } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A real webhook receiver on 127.0.0.1 for tests. It records every request (headers and raw
 * body) and answers as the test says. Signatures are computed here with node:crypto directly,
 * independently of the service's signing code.
 */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Reply {
  status?: number;
  /** Sign the response X-Signature with this token (HMAC of X-Token + ":" + body); omit for none. */
  signWith?: string;
  /** Answer after this many milliseconds. */
  delayMs?: number;
  headers?: Record<string, string>;
  body?: string;
}

export type ReplyRule = (request: ReceivedRequest, index: number) => Reply;

export function hmacHex(key: string, text: string): string {
  return createHmac("sha256", key).update(text, "utf8").digest("hex");
}

export async function startReceiver(rule: ReplyRule = () => ({ status: 200 })) {
  const requests: ReceivedRequest[] = [];
  let currentRule = rule;
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const request: ReceivedRequest = {
        method: req.method ?? "",
        path: req.url ?? "/",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      const index = requests.push(request) - 1;
      for (const waiter of waiters.filter((w) => requests.length >= w.count)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
      const reply = currentRule(request, index);
      const headers: Record<string, string> = { "content-type": "text/plain", ...reply.headers };
      const xToken = request.headers["x-token"];
      if (reply.signWith && typeof xToken === "string") headers["x-signature"] = hmacHex(reply.signWith, `${xToken}:${request.body}`);
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(reply.status ?? 200, headers);
        res.end(reply.body ?? "ok");
      };
      if (reply.delayMs) setTimeout(send, reply.delayMs).unref();
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    requests,
    setRule(next: ReplyRule) {
      currentRule = next;
    },
    /** Resolves once at least `count` requests arrived. */
    waitForRequests(count: number): Promise<void> {
      if (requests.length >= count) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ count, resolve }));
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type TestReceiver = Awaited<ReturnType<typeof startReceiver>>;
