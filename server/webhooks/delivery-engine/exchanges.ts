import { randomUUID } from "node:crypto";
import { config } from "../../config";
import { postWebhook } from "../http";
import { expectedResponseSignature, legacySignatureHeader, signaturesMatch, signBody, standardWebhookSignature } from "../signing";
import type { ClaimedDelivery } from "./claim";
import { CURRENT_TIMEOUT_MS, LEGACY_TIMEOUT_MS } from "./limits";

/** One request of a delivery (per protocol and signature scheme) and what its answer means. */
export interface Exchange {
  statusCode?: number;
  durationMs: number;
  /** Undefined when the attempt succeeded. */
  error?: string;
  /**
   * The receiver refused the request's signature (401 or 403) or, on X-Signature, answered 2xx
   * without an answer signature that verifies: what a receiver still holding the previous token
   * does, so the fallback token is worth one more request.
   */
  signatureRefused: boolean;
  /** How long the receiver asked to wait before the next attempt (Retry-After of a 429 or 503). */
  retryAfterMs?: number;
}

/** One request of the current protocol: signed with `token`, its answer verified with the same token. */
export async function exchangeCurrent(delivery: ClaimedDelivery, token: string): Promise<Exchange> {
  const requestToken = randomUUID();
  const outcome = await postWebhook(
    delivery.url,
    { "x-signature": signBody(token, delivery.body), "x-token": requestToken },
    delivery.body,
    CURRENT_TIMEOUT_MS,
  );
  const failure = httpFailure(outcome.statusCode, outcome.error);
  if (failure) return { ...outcome, error: failure, signatureRefused: refusesSignature(outcome.statusCode) };
  if (!outcome.signature) return { ...outcome, error: "Response has no X-Signature header", signatureRefused: true };
  if (signaturesMatch(expectedResponseSignature(token, requestToken, delivery.body), outcome.signature)) {
    return { ...outcome, error: undefined, signatureRefused: false };
  }
  return { ...outcome, error: "Response X-Signature does not verify", signatureRefused: true };
}

/** `X-Service-Event` and `X-Service-Signature`, or the names a deployment set with WEBHOOK_LEGACY_HEADER_PREFIX. */
function legacyHeaders(eventType: string, signature: string): Record<string, string> {
  const prefix = config.webhookLegacyHeaderPrefix();
  return { [`${prefix}-Event`]: eventType, [`${prefix}-Signature`]: signature };
}

/**
 * One request to an endpoint that opted into Standard Webhooks: `webhook-id` (the idempotency
 * token), `webhook-timestamp` (now, in seconds) and `webhook-signature` with one signature per
 * token given (the active one, then the fallback; the fallback alone for the request after a
 * refusal). Any 2xx is success.
 */
export async function exchangeStandardWebhooks(delivery: ClaimedDelivery, tokens: readonly string[]): Promise<Exchange> {
  const timestamp = Math.floor(Date.now() / 1000);
  const signature = standardWebhookSignature(tokens, delivery.idempotencyToken, timestamp, delivery.body);
  const outcome = await postWebhook(
    delivery.url,
    { "webhook-id": delivery.idempotencyToken, "webhook-timestamp": String(timestamp), "webhook-signature": signature },
    delivery.body,
    CURRENT_TIMEOUT_MS,
  );
  return { ...outcome, error: httpFailure(outcome.statusCode, outcome.error), signatureRefused: refusesSignature(outcome.statusCode) };
}

export async function exchangeLegacy(delivery: ClaimedDelivery, secret: string): Promise<Exchange> {
  const outcome = await postWebhook(
    delivery.url,
    legacyHeaders(delivery.eventType, legacySignatureHeader(secret, delivery.body)),
    delivery.body,
    LEGACY_TIMEOUT_MS,
  );
  return { ...outcome, error: httpFailure(outcome.statusCode, outcome.error), signatureRefused: refusesSignature(outcome.statusCode) };
}

/** 401 Unauthorized or 403 Forbidden: how a receiver says the signature is not one it accepts. */
function refusesSignature(statusCode: number | undefined): boolean {
  return statusCode === 401 || statusCode === 403;
}

function httpFailure(statusCode: number | undefined, error: string | undefined): string | undefined {
  if (error) return error;
  if (statusCode === undefined || statusCode < 200 || statusCode > 299) return `HTTP ${statusCode}`;
  return undefined;
}
