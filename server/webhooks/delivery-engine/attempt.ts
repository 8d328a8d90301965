import type { Db } from "../../db/client";
import { exchangeChannel } from "../channels/adapters";
import { metrics } from "../../metrics/registry";
import type { SigningTokens } from "../secrets";
import type { StartedAttempt } from "./claim";
import { exchangeCurrent, exchangeLegacy, exchangeStandardWebhooks, type Exchange } from "./exchanges";
import { outcomeOf, type ResultWriter } from "./outcomes";

/**
 * Sends one started attempt and hands its outcome to the writer. On the current protocol, an
 * answer that refuses the signature (401 or 403; on X-Signature also a 2xx without an answer
 * signature that verifies with the active token) is followed, once per delivery and only while a
 * fallback secret exists, by one extra request signed with the fallback token alone (and its
 * answer verified with it): a receiver not yet switched after `secrets/cycle` still gets the
 * event (docs/webhooks.md, "Rotating the signing secret"). That request does not count against
 * maxAttempts. The earlier protocol has one secret per endpoint and no fallback. `onAnswered` is
 * called once the delivery's last request of this attempt has its answer (or failed), before the
 * outcome is written: from then on it holds no request slot.
 */
export async function performAttempt(db: Db, writer: ResultWriter, attempt: StartedAttempt, onAnswered?: () => void): Promise<void> {
  const { delivery, signing } = attempt;
  if (signing.protocol === "channel") {
    const exchange = await exchangeChannel(signing.target, delivery.body);
    onAnswered?.();
    await writer.record(outcomeOf(attempt, { id: attempt.attemptId, written: false }, exchange, exchange.error));
    return;
  }
  const first =
    signing.protocol === "legacy"
      ? await exchangeLegacy(delivery, signing.secret)
      : delivery.signatureScheme === "standard-webhooks"
        ? await exchangeStandardWebhooks(delivery, withFallback(signing.tokens))
        : await exchangeCurrent(delivery, signing.tokens.active);
  const fallbackToken = signing.protocol === "current" ? signing.tokens.fallback : undefined;
  if (first.signatureRefused && fallbackToken && !delivery.fallbackUsed) {
    const fallbackAttemptId = await recordFirstAndStartFallback(db, attempt, first);
    if (!fallbackAttemptId) return;
    metrics().webhookAttempts.inc({ protocol: delivery.protocol, outcome: "fallback" });
    const second =
      delivery.signatureScheme === "standard-webhooks"
        ? await exchangeStandardWebhooks(delivery, [fallbackToken])
        : await exchangeCurrent(delivery, fallbackToken);
    onAnswered?.();
    await writer.record(outcomeOf(attempt, { id: fallbackAttemptId, written: true }, second, second.error ? first.error : undefined));
    return;
  }
  onAnswered?.();
  await writer.record(outcomeOf(attempt, { id: attempt.attemptId, written: false }, first, first.error));
}

function withFallback(tokens: SigningTokens & { active: string }): string[] {
  return tokens.fallback ? [tokens.active, tokens.fallback] : [tokens.active];
}

/**
 * Writes the active-secret attempt's row, complete, and the fallback request's, open until its
 * answer (the sweep closes it as interrupted if the worker dies meanwhile); undefined when the
 * lease was lost.
 */
async function recordFirstAndStartFallback(db: Db, attempt: StartedAttempt, first: Exchange): Promise<string | undefined> {
  const { delivery } = attempt;
  const rows = await db.$queryRaw<Array<{ id: string }>>`
    WITH marked AS (
      UPDATE webhook_deliveries SET fallback_used = true, updated_at = now()
      WHERE id = ${delivery.id}::uuid AND claim_token = ${delivery.claimToken}::uuid
      RETURNING id
    ), first AS (
      INSERT INTO webhook_attempts (id, delivery_id, started_at, finished_at, status_code, duration_ms, error)
      SELECT ${attempt.attemptId}::uuid, id, ${delivery.claimedAt}, now(), ${first.statusCode ?? null}::int, ${first.durationMs}::int,
             ${first.error ?? null}
      FROM marked
    )
    INSERT INTO webhook_attempts (delivery_id, fallback_secret, started_at) SELECT id, true, now() FROM marked
    RETURNING id::text`;
  return rows[0]?.id;
}
