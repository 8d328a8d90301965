import { createHash, createHmac, randomBytes } from "node:crypto";
import { derivedAppKey } from "./app-key";

/**
 * The secrets of portal sign-in (magic-link tokens, refresh tokens): 32 random bytes in base64url.
 * With 256 bits of entropy a plain SHA-256 is a safe stored form (no salt or slow hash needed:
 * nobody can guess a preimage), and the clear token exists only in the link or the cookie.
 */
export const SECRET_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function newSecretToken(): string {
  return randomBytes(32).toString("base64url");
}

export function hashSecretToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/**
 * The refresh token that replaces `token` when it is rotated: an HMAC of it under a key of the
 * app secret. Unpredictable without that key, and the same however often it is computed, so
 * requests that refresh concurrently with one token all receive its one successor (sessions.ts).
 */
export function successorToken(token: string): string {
  return createHmac("sha256", derivedAppKey("portal-refresh-tokens")).update(token).digest("base64url");
}
