import { CHANNEL_TIMEOUT_MS } from "../../delivery-engine/limits";
import type { Exchange } from "../../delivery-engine/exchanges";
import { postWebhook } from "../../http";
import { withoutSecret, type ChannelTarget } from "../targets";

/**
 * A chat message's one request: a JSON POST through the webhooks' own HTTP client (no
 * redirects, public addresses only, checked again at connect time). Any 2xx is success; the
 * error kept never holds the URL's secret part.
 */
export async function postChatMessage(target: Extract<ChannelTarget, { url: string }>, body: string): Promise<Exchange> {
  const outcome = await postWebhook(target.url, {}, body, CHANNEL_TIMEOUT_MS);
  const failed =
    outcome.error ??
    (outcome.statusCode === undefined || outcome.statusCode < 200 || outcome.statusCode > 299 ? `HTTP ${outcome.statusCode}` : undefined);
  return {
    statusCode: outcome.statusCode,
    durationMs: outcome.durationMs,
    retryAfterMs: outcome.retryAfterMs,
    error: failed === undefined ? undefined : withoutSecret(failed, target),
    signatureRefused: false,
  };
}
