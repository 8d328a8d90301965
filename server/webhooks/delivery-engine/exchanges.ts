import { randomUUID } from "node:crypto";
import { config } from "../../config";
import { postWebhook } from "../http";
import type { SigningTokens } from "../secrets";
import { expectedResponseSignature, legacySignatureHeader, signaturesMatch, signBody, standardWebhookSignature } from "../signing";
import type { ClaimedDelivery } from "./claim";
import { CURRENT_TIMEOUT_MS, LEGACY_TIMEOUT_MS } from "./limits";

/** One request of a delivery (per protocol and signature scheme) and what its answer means. */
export interface Exchange {
  statusCode?: number;
  durationMs: number;
  /** Undefined when the attempt succeeded. */
  error?: string;
  /** The answer was 2xx and signed, but not with the token the request was signed with. */
  signatureMismatch: boolean;
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
  if (failure) return { ...outcome, error: failure, signatureMismatch: false };
  if (!outcome.signature) return { ...outcome, error: "Response has no X-Signature header", signatureMismatch: false };
  if (signaturesMatch(expectedResponseSignature(token, requestToken, delivery.body), outcome.signature)) {
    return { ...outcome, error: undefined, signatureMismatch: false };
  }
  return { ...outcome, error: "Response X-Signature does not verify", signatureMismatch: true };
}

/** `X-Service-Event` and `X-Service-Signature`, or the names a deployment set with WEBHOOK_LEGACY_HEADER_PREFIX. */
function legacyHeaders(eventType: string, signature: string): Record<string, string> {
  const prefix = config.webhookLegacyHeaderPrefix();
  return { [`${prefix}-Event`]: eventType, [`${prefix}-Signature`]: signature };
}

/**
 * One request to an endpoint that opted into Standard Webhooks: `webhook-id` (the idempotency
 * token), `webhook-timestamp` (now, in seconds) and `webhook-signature` with one signature per
 * token the organization has (the active one, then the fallback). Any 2xx is success.
 */
export async function exchangeStandardWebhooks(delivery: ClaimedDelivery, tokens: SigningTokens & { active: string }): Promise<Exchange> {
  const timestamp = Math.floor(Date.now() / 1000);
  const signature = standardWebhookSignature(
    tokens.fallback ? [tokens.active, tokens.fallback] : [tokens.active],
    delivery.idempotencyToken,
    timestamp,
    delivery.body,
  );
  const outcome = await postWebhook(
    delivery.url,
    { "webhook-id": delivery.idempotencyToken, "webhook-timestamp": String(timestamp), "webhook-signature": signature },
    delivery.body,
    CURRENT_TIMEOUT_MS,
  );
  return { ...outcome, error: httpFailure(outcome.statusCode, outcome.error), signatureMismatch: false };
}

export async function exchangeLegacy(delivery: ClaimedDelivery, secret: string): Promise<Exchange> {
  const outcome = await postWebhook(
    delivery.url,
    legacyHeaders(delivery.eventType, legacySignatureHeader(secret, delivery.body)),
    delivery.body,
    LEGACY_TIMEOUT_MS,
  );
  return { ...outcome, error: httpFailure(outcome.statusCode, outcome.error), signatureMismatch: false };
}

function httpFailure(statusCode: number | undefined, error: string | undefined): string | undefined {
  if (error) return error;
  if (statusCode === undefined || statusCode < 200 || statusCode > 299) return `HTTP ${statusCode}`;
  return undefined;
}
