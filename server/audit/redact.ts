/**
 * What an audit row may hold of a request or an answer: everything but secrets. A key that names
 * a secret (password, token, API key, signing or client secret, TOTP seed, recovery codes, a
 * ciphertext or hash) keeps its place with the value replaced; a string that is itself a secret
 * (an API key, a link carrying a one-time token) is replaced wherever it stands.
 */
export const REDACTED = "[redacted]";

const SECRET_KEY =
  /secret|password|passphrase|token|api_?key|public_?key|ciphertext|hash|seed|totp|otpauth|recovery|credential|private|^code_?verifier$|^qr/i;
const SECRET_VALUE = /^(?:expmon_[pd]_|sk_live_)/;
const TOKEN_PARAMETER = /([?&#][^=&#\s]*(?:token|secret|code|key|state)[^=&#\s]*=)[^&#\s]+/gi;
const MAX_DEPTH = 8;
const MAX_STRING = 2_000;
const MAX_ITEMS = 200;

export function redactSecrets(value: unknown, depth = 0): unknown {
  if (value === null || value === undefined) return value ?? null;
  if (typeof value === "string") {
    if (SECRET_VALUE.test(value)) return REDACTED;
    const cleaned = value.replace(TOKEN_PARAMETER, `$1${REDACTED}`);
    return cleaned.length > MAX_STRING ? `${cleaned.slice(0, MAX_STRING)}…` : cleaned;
  }
  if (typeof value === "number" || typeof value === "boolean") return value;
  if (typeof value === "bigint") return value.toString();
  if (value instanceof Date) return value.toISOString();
  if (depth >= MAX_DEPTH) return "…";
  if (Array.isArray(value)) return value.slice(0, MAX_ITEMS).map((item) => redactSecrets(item, depth + 1));
  if (typeof value === "object") {
    if (typeof (value as { toJSON?: unknown }).toJSON === "function")
      return redactSecrets((value as { toJSON(): unknown }).toJSON(), depth);
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      if (item === undefined || typeof item === "function") continue;
      out[key] = SECRET_KEY.test(key) && item !== null && item !== false ? REDACTED : redactSecrets(item, depth + 1);
    }
    return out;
  }
  return null;
}
