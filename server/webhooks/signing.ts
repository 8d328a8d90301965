import { createHmac, timingSafeEqual } from "node:crypto";

/** Hex HMAC-SHA256 of the raw body, keyed with a signing token (X-Signature, the current protocol). */
export function signBody(token: string, body: string): string {
  return createHmac("sha256", token).update(body, "utf8").digest("hex");
}

/** What the receiver must answer in its X-Signature header: HMAC(token, X-Token + ":" + body). */
export function expectedResponseSignature(token: string, requestToken: string, body: string): string {
  return createHmac("sha256", token).update(`${requestToken}:${body}`, "utf8").digest("hex");
}

/** Compares hex signatures in constant time (case-insensitive, surrounding blanks ignored). */
export function signaturesMatch(expectedHex: string, presented: string | null | undefined): boolean {
  if (!presented) return false;
  const given = Buffer.from(presented.trim().toLowerCase(), "utf8");
  const expected = Buffer.from(expectedHex.toLowerCase(), "utf8");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** X-Service-Signature of the earlier protocol: "sha256=<hex>" with the endpoint secret. */
export function legacySignatureHeader(secret: string, body: string): string {
  return `sha256=${signBody(secret, body)}`;
}

/**
 * `webhook-signature` of Standard Webhooks (docs/webhooks.md): for each token, in order,
 * "v1," + base64 HMAC-SHA256 over "{webhook-id}.{webhook-timestamp}.{body}" keyed with the
 * token's UTF-8 bytes; the signatures are separated by spaces.
 */
export function standardWebhookSignature(tokens: readonly string[], webhookId: string, timestampSeconds: number, body: string): string {
  const signed = `${webhookId}.${timestampSeconds}.${body}`;
  return tokens.map((token) => `v1,${createHmac("sha256", Buffer.from(token, "utf8")).update(signed, "utf8").digest("base64")}`).join(" ");
}
