import { randomBytes } from "node:crypto";
import { crc32 } from "node:zlib";

/**
 * The API key format (docs/security.md, "Key format"): a prefix naming the service and the kind
 * of key, 40 random base62 characters, and a 6-character base62 CRC32 of those 40, so a secret
 * scanner (or this service, before any database lookup) can tell a real key from a typo offline.
 * Keys issued before this format, `sk_live_` and 40 characters without a checksum, keep working.
 */
export type ApiKeyKind = "partner" | "distributor" | "legacy";

export const PARTNER_KEY_PREFIX = "expmon_p_";
export const DISTRIBUTOR_KEY_PREFIX = "expmon_d_";
export const LEGACY_KEY_PREFIX = "sk_live_";

const RANDOM_LENGTH = 40; // base62: ~238 bits
const CHECKSUM_LENGTH = 6; // 62^6 > 2^32
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const KEY_PATTERN = /^(expmon_[pd]_|sk_live_)([0-9A-Za-z]+)$/;

const PREFIX_OF_KIND: Record<Exclude<ApiKeyKind, "legacy">, string> = {
  partner: PARTNER_KEY_PREFIX,
  distributor: DISTRIBUTOR_KEY_PREFIX,
};

/** A new key of that kind (the clear key: shown once, never stored). */
export function newApiKey(kind: Exclude<ApiKeyKind, "legacy">): string {
  const random = randomBase62(RANDOM_LENGTH);
  return PREFIX_OF_KIND[kind] + random + keyChecksum(random);
}

/**
 * The kind of a well-formed key: the right prefix, length and alphabet, and (for the current
 * format) a matching checksum. Undefined for anything else. Pure: no database, no secret.
 */
export function apiKeyKind(key: string): ApiKeyKind | undefined {
  const match = KEY_PATTERN.exec(key);
  if (!match) return undefined;
  const [, prefix, body] = match as unknown as [string, string, string];
  if (prefix === LEGACY_KEY_PREFIX) return body.length === RANDOM_LENGTH ? "legacy" : undefined;
  if (body.length !== RANDOM_LENGTH + CHECKSUM_LENGTH) return undefined;
  const random = body.slice(0, RANDOM_LENGTH);
  if (body.slice(RANDOM_LENGTH) !== keyChecksum(random)) return undefined;
  return prefix === PARTNER_KEY_PREFIX ? "partner" : "distributor";
}

/** The key's prefix and its first 12 random characters: the unique clear part stored to find its row. */
export function storedKeyPrefix(key: string): string {
  const prefix = KEY_PATTERN.exec(key)?.[1] ?? "";
  return key.slice(0, prefix.length + 12);
}

/** CRC32 of the random part, in base62, left-padded with zeros to 6 characters. */
export function keyChecksum(random: string): string {
  let value = crc32(random);
  let out = "";
  while (value > 0) {
    out = BASE62[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out.padStart(CHECKSUM_LENGTH, "0");
}

function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 248 = 62 * 4: rejecting larger bytes keeps every character equally likely
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}
