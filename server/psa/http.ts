import { EventEmitter } from "node:events";
import { Agent, request } from "undici";
import { config } from "../config";
import { RETRY_AFTER_STATUSES, retryAfterDelayMs } from "../webhooks/retry-schedule";
import { AddressNotAllowedError, literalAddressRefusal, publicOnlyLookup } from "../webhooks/url-safety";
import { PsaError } from "./adapter";

/**
 * The one way a request reaches a partner's PSA: the webhook URL rules checked again at send
 * time (an IP literal before connecting, every name when it connects: publicOnlyLookup), no
 * redirects, the whole exchange bounded by PSA_REQUEST_TIMEOUT_MS, at most 1 MiB of answer read.
 * Anything but a 2xx becomes a PsaError of the kind the sync acts on.
 */
const RESPONSE_READ_LIMIT = 1024 * 1024;
const USER_AGENT = "exposure-monitor-psa/1";

let agents: { strict: Agent; permissive: Agent } | undefined;
function agent(): Agent {
  agents ??= { strict: new Agent({ connect: { lookup: publicOnlyLookup } }), permissive: new Agent() };
  return config.webhookAllowPrivateUrls() ? agents.permissive : agents.strict;
}

export interface PsaRequest {
  method: "GET" | "POST" | "PATCH";
  headers: Record<string, string>;
  /** A JSON body (sent as application/json), or form fields (application/x-www-form-urlencoded). */
  json?: unknown;
  form?: Record<string, string>;
}

/** Sends one request and returns its parsed JSON answer (undefined for an empty one). */
export async function psaRequest(vendor: string, url: string, init: PsaRequest): Promise<unknown> {
  const refusal = literalAddressRefusal(new URL(url));
  if (refusal) throw new PsaError("refused", refusal);
  const signal = new EventEmitter();
  let timedOut = false;
  const timeoutMs = config.psaRequestTimeoutMs();
  const timer = setTimeout(() => {
    timedOut = true;
    signal.emit("abort");
  }, timeoutMs).unref();
  const body = init.json !== undefined ? JSON.stringify(init.json) : init.form ? new URLSearchParams(init.form).toString() : undefined;
  const contentType = init.json !== undefined ? "application/json" : init.form ? "application/x-www-form-urlencoded" : undefined;
  try {
    const response = await request(url, {
      method: init.method,
      headers: {
        accept: "application/json",
        "user-agent": USER_AGENT,
        ...(contentType && { "content-type": contentType }),
        ...init.headers,
      },
      body,
      dispatcher: agent(),
      signal,
    });
    const text = await readCapped(response.body);
    const status = response.statusCode;
    if (status >= 200 && status < 300) return text.trim() === "" ? undefined : parseJson(vendor, text);
    const said = `${vendor} answered ${status}${answerDetail(text)}`;
    if (status === 401 || status === 403) throw new PsaError("auth", said);
    if (status === 429 || status >= 500) {
      const header = response.headers["retry-after"];
      const retryAfter = RETRY_AFTER_STATUSES.has(status) ? retryAfterDelayMs(Array.isArray(header) ? header[0] : header) : undefined;
      throw new PsaError("retry", said, retryAfter);
    }
    throw new PsaError("refused", said);
  } catch (error) {
    if (error instanceof PsaError) throw error;
    if (timedOut) throw new PsaError("retry", `${vendor} did not answer within ${timeoutMs} ms`);
    throw transportError(vendor, error);
  } finally {
    clearTimeout(timer);
  }
}

function parseJson(vendor: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new PsaError("retry", `${vendor} answered with something that is not JSON`);
  }
}

/** The start of the PSA's own explanation, for the partner (never a credential: the PSA does not echo them). */
function answerDetail(text: string): string {
  const trimmed = text.replace(/\s+/g, " ").trim();
  return trimmed ? `: ${trimmed.slice(0, 300)}` : "";
}

async function readCapped(stream: AsyncIterable<Buffer> & { destroy(): void }): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    total += chunk.length;
    if (total > RESPONSE_READ_LIMIT) {
      stream.destroy();
      break;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function transportError(vendor: string, error: unknown): PsaError {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  if (cause instanceof AddressNotAllowedError || error instanceof AddressNotAllowedError) {
    return new PsaError("refused", (cause as Error).message);
  }
  const code = (cause as NodeJS.ErrnoException | undefined)?.code;
  const what = code === "ECONNREFUSED" ? "connection refused" : code === "ENOTFOUND" ? "host not found" : (cause as Error)?.message;
  return new PsaError("retry", `${vendor} could not be reached: ${what ?? String(cause)}`);
}
