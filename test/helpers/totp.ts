import { createHmac } from "node:crypto";

/**
 * RFC 6238 TOTP written here from the RFC (HMAC-SHA-1, dynamic truncation of RFC 4226), apart
 * from the service's otplib, so the tests check the service against an independent
 * implementation: the authenticator app's side. test/unit/totp.test.ts checks it against the
 * RFC's own test vectors.
 */
const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

export function base32Decode(text: string): Buffer {
  const clean = text.replace(/=+$/, "").replace(/\s/g, "").toUpperCase();
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of clean) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error(`not base32: ${char}`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** The code for the time step counter (RFC 4226 HOTP). */
export function hotp(key: Buffer, counter: number, digits = 6, algorithm: "sha1" | "sha256" | "sha512" = "sha1"): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const digest = createHmac(algorithm, key).update(message).digest();
  const offset = digest[digest.length - 1]! & 0x0f;
  const binary = (digest.readUInt32BE(offset) & 0x7fffffff) % 10 ** digits;
  return String(binary).padStart(digits, "0");
}

/** The TOTP code of a base32 seed at a time (seconds since the epoch), 30 s steps from T0 = 0. */
export function totp(secretBase32: string, atSeconds = Date.now() / 1000, stepOffset = 0): string {
  return hotp(base32Decode(secretBase32), Math.floor(atSeconds / 30) + stepOffset);
}

/** The seed in an otpauth:// URI (what the QR code carries). */
export function secretOfUri(uri: string): string {
  const url = new URL(uri);
  if (url.protocol !== "otpauth:" || url.host !== "totp") throw new Error(`not a TOTP URI: ${uri}`);
  return url.searchParams.get("secret") ?? "";
}
