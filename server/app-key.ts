import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { config, isEmbeddedDatabase } from "./config";

/**
 * The app secret, from which each purpose derives its own key (HKDF): the encryption of webhook
 * signing secrets at rest (they must stay readable to sign, so they cannot be hashed like API
 * keys), the signing of UI sessions, of e-mail unsubscribe links and of verification e-mails' stop links, breach/range's decoys. Taken from APP_SECRET; on
 * the embedded default without it, generated once into DATA_DIR/app-secret (mode 0600). With
 * DATABASE_URL, APP_SECRET is required: several processes share that database and must share
 * the key, so a key generated on one machine would leave the others unable to sign.
 */
export const APP_SECRET_FILE = "app-secret";
const MIN_SECRET_LENGTH = 32;
const FORMAT = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class AppKeyError extends Error {
  override name = "AppKeyError";
}

const derivedKeys = new Map<string, { secret: string; key: Buffer }>();

/** The configured or generated app secret; throws AppKeyError saying how to fix a missing one. */
export function appSecret(): string {
  const configured = config.appSecret();
  if (configured !== undefined) {
    if (configured.length < MIN_SECRET_LENGTH) {
      throw new AppKeyError(`APP_SECRET must be at least ${MIN_SECRET_LENGTH} characters (e.g. \`openssl rand -base64 32\`)`);
    }
    return configured;
  }
  if (!isEmbeddedDatabase()) {
    throw new AppKeyError(
      "APP_SECRET is required when DATABASE_URL is set: it encrypts webhook signing secrets, and every process " +
        "using the database must share it. Generate one with `openssl rand -base64 32`.",
    );
  }
  return readOrCreateSecretFile(path.join(config.dataDir(), APP_SECRET_FILE));
}

function readOrCreateSecretFile(file: string): string {
  mkdirSync(path.dirname(file), { recursive: true });
  try {
    writeFileSync(file, randomBytes(32).toString("base64url") + "\n", { mode: 0o600, flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  const secret = readFileSync(file, "utf8").trim();
  if (secret.length < MIN_SECRET_LENGTH)
    throw new AppKeyError(`${file} does not hold a usable app secret; delete it to generate a new one`);
  return secret;
}

/** A 32-byte key for one purpose, derived from the app secret (so purposes never share a key). */
export function derivedAppKey(
  purpose:
    | "webhook-signing-secrets"
    | "ui-sessions"
    | "portal-refresh-tokens"
    | "unsubscribe-links"
    | "domain-mail-stop-links"
    | "breach-range-decoys",
): Buffer {
  const secret = appSecret();
  const cached = derivedKeys.get(purpose);
  if (cached?.secret === secret) return cached.key;
  const key = Buffer.from(hkdfSync("sha256", secret, "exposure-monitor", purpose, 32));
  derivedKeys.set(purpose, { secret, key });
  return key;
}

function appKey(): Buffer {
  return derivedAppKey("webhook-signing-secrets");
}

/** AES-256-GCM under the app key: "v1.<iv>.<ciphertext+tag>" (base64url). */
export function encryptSecret(plaintext: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", appKey(), iv);
  const sealed = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final(), cipher.getAuthTag()]);
  return `${FORMAT}.${iv.toString("base64url")}.${sealed.toString("base64url")}`;
}

export function decryptSecret(ciphertext: string): string {
  const [format, ivText, sealedText] = ciphertext.split(".");
  if (format !== FORMAT || !ivText || !sealedText) throw new AppKeyError("unknown signing-secret ciphertext format");
  const sealed = Buffer.from(sealedText, "base64url");
  const decipher = createDecipheriv("aes-256-gcm", appKey(), Buffer.from(ivText, "base64url"));
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES)), decipher.final()]).toString("utf8");
  } catch {
    throw new AppKeyError("a signing secret cannot be decrypted: APP_SECRET (or DATA_DIR/app-secret) is not the key it was stored with");
  }
}
