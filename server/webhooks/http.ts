import { EventEmitter } from "node:events";
import { Agent, request } from "undici";
import { config } from "../config";
import { RETRY_AFTER_STATUSES, retryAfterDelayMs } from "./retry-schedule";
import { AddressNotAllowedError, literalAddressRefusal, publicOnlyLookup } from "./url-safety";

/**
 * The one way a webhook request leaves the service: POST only, no redirects followed (undici's
 * request never follows them), the whole exchange bounded by the protocol's timeout, at most
 * RESPONSE_READ_LIMIT bytes of the answer read, and, unless WEBHOOK_ALLOW_PRIVATE_URLS=true,
 * every connection checked at connect time (publicOnlyLookup) so DNS rebinding cannot reach
 * internal addresses. Keep-alive connections are pooled per origin.
 */
export const RESPONSE_READ_LIMIT = 64 * 1024;
const CONNECTIONS_PER_ORIGIN = 32;
const USER_AGENT = "exposure-monitor-webhooks/1";

export interface HttpOutcome {
  statusCode?: number;
  /** The response X-Signature header, when there was a response. */
  signature?: string;
  /** How long a 429 or 503 answer asked to wait (Retry-After, capped at 24 h). */
  retryAfterMs?: number;
  /** Transport failure, timeout or refusal; undefined when a response arrived in time. */
  error?: string;
  durationMs: number;
}

let agents: { strict: Agent; permissive: Agent } | undefined;

function agent(): Agent {
  agents ??= {
    strict: new Agent({ connections: CONNECTIONS_PER_ORIGIN, connect: { lookup: publicOnlyLookup } }),
    permissive: new Agent({ connections: CONNECTIONS_PER_ORIGIN }),
  };
  return config.webhookAllowPrivateUrls() ? agents.permissive : agents.strict;
}

export async function postWebhook(url: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<HttpOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const refusal = literalAddressRefusal(new URL(url));
  if (refusal) return { error: refusal, durationMs: 0 };
  // undici takes an EventEmitter as the abort signal: per request it costs far less than
  // AbortSignal.timeout's event target and abort listener (docs/measures.md)
  const signal = new EventEmitter();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    signal.emit("abort");
  }, timeoutMs).unref();
  try {
    const response = await request(url, {
      method: "POST",
      headers: { "content-type": "application/json", "user-agent": USER_AGENT, ...headers },
      body,
      dispatcher: agent(),
      signal,
    });
    await readCapped(response.body);
    return {
      statusCode: response.statusCode,
      signature: firstValue(response.headers["x-signature"]),
      retryAfterMs: RETRY_AFTER_STATUSES.has(response.statusCode)
        ? retryAfterDelayMs(firstValue(response.headers["retry-after"]))
        : undefined,
      durationMs: elapsed(),
    };
  } catch (error) {
    return { error: timedOut ? `Timed out after ${timeoutMs} ms` : describeFailure(error), durationMs: elapsed() };
  } finally {
    clearTimeout(timer);
  }
}

function firstValue(header: string | string[] | undefined): string | undefined {
  return Array.isArray(header) ? header[0] : header;
}

/** Reads (and discards) the answer up to the limit so the connection can be reused; more is cut off. */
async function readCapped(stream: AsyncIterable<Buffer> & { destroy(): void }): Promise<void> {
  let total = 0;
  for await (const chunk of stream) {
    total += chunk.length;
    if (total > RESPONSE_READ_LIMIT) {
      stream.destroy();
      return;
    }
  }
}

function describeFailure(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  if (cause instanceof AddressNotAllowedError) return cause.message;
  if (error instanceof AddressNotAllowedError) return error.message;
  const code = (cause as NodeJS.ErrnoException | undefined)?.code;
  if (code === "ECONNREFUSED") return "Connection refused";
  if (code === "ENOTFOUND") return "Host not found";
  const message = cause instanceof Error ? cause.message : String(cause);
  return code ? `${code}: ${message}` : message;
}
