import { hash, timingSafeEqual } from "node:crypto";
import type { Db } from "../db/client";
import type { HeaderSource } from "../http/headers";
import { notFound, unauthenticated } from "../errors";
import { UUID_PATTERN } from "../uuid";
import { apiKeyKind, newApiKey, storedKeyPrefix } from "./key-format";
import { API_KEY_REVOKED_CHANNEL, forgetVerifiedKey, verifiedKeyCacheOf, type VerifiedKey } from "./verified-key-cache";

export const MISSING_PARTNER_HEADERS = "Partner ID and API key are required in headers";
export const MISSING_DISTRIBUTOR_HEADERS = "Distributor ID and API key are required in headers";
export const INVALID_API_KEY = "Failed to verify org API key";

/** lastUsedAt is written at most this often per key, to keep the write off the hot path. */
const LAST_USED_RESOLUTION_MS = 60_000;

export type KeyOwner = { partnerId: string } | { distributorId: string };

/** Who called: a partner (with its own key or its distributor's) or a distributor. */
export type PartnerCaller = {
  partnerId: string;
  distributorId: string;
  apiKeyId: string;
  /** "distributor" when a distributor key acts on behalf of one of its partners. */
  keyOwner: "partner" | "distributor";
};
export type DistributorCaller = { distributorId: string; apiKeyId: string };

export function hashApiKey(apiKey: string): string {
  return hash("sha256", apiKey, "hex");
}

/** A new key in the current format (server/auth/key-format.ts), with the parts stored. */
export function generateApiKey(kind: "partner" | "distributor"): { apiKey: string; prefix: string; keyHash: string } {
  const apiKey = newApiKey(kind);
  return { apiKey, prefix: storedKeyPrefix(apiKey), keyHash: hashApiKey(apiKey) };
}

/** Creates a key for an organization. The clear key is returned here once and never stored. */
export async function issueApiKey(db: Db, owner: KeyOwner, label?: string): Promise<{ id: string; apiKey: string }> {
  const { apiKey, prefix, keyHash } = generateApiKey("partnerId" in owner ? "partner" : "distributor");
  const row = await db.apiKey.create({
    data: { prefix, keyHash, label: label ?? null, ...owner },
    select: { id: true },
  });
  return { id: row.id, apiKey };
}

export async function listApiKeys(db: Db, owner: KeyOwner) {
  return db.apiKey.findMany({
    where: owner,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: { id: true, prefix: true, label: true, createdAt: true, lastUsedAt: true, revokedAt: true },
  });
}

/**
 * Revokes a key of the owner; revoking twice is harmless. Unknown or foreign ids are not found.
 * Every process caching the key's verification is told in the same transaction (NOTIFY).
 */
export async function revokeApiKey(db: Db, owner: KeyOwner, id: string): Promise<void> {
  if (!UUID_PATTERN.test(id)) throw notFound("API key not found");
  const key = await db.apiKey.findFirst({ where: { id, ...owner }, select: { revokedAt: true } });
  if (!key) throw notFound("API key not found");
  if (!key.revokedAt) {
    await db.$transaction([
      db.apiKey.update({ where: { id }, data: { revokedAt: new Date() } }),
      db.$executeRaw`SELECT pg_notify(${API_KEY_REVOKED_CHANNEL}, ${id})`,
    ]);
  }
  forgetVerifiedKey(db, id);
}

/**
 * Runs on every authenticated request: a key that is not well formed (a broken checksum among
 * others) is refused without a lookup; a key verified in the last VERIFIED_KEY_TTL_MS is taken
 * from this process's cache (server/auth/verified-key-cache.ts), otherwise one indexed lookup.
 * A current-format key works only for the kind of organization its prefix names.
 */
async function verifyKey(db: Db, apiKey: string): Promise<VerifiedKey | undefined> {
  const kind = apiKeyKind(apiKey);
  if (!kind) return undefined;
  const keyHash = hashApiKey(apiKey);
  const cache = verifiedKeyCacheOf(db);
  const cached = cache?.get(keyHash);
  if (cached) return cached;
  const readStartedAt = cache?.readStarted() ?? 0;
  const verified = await readKey(db, apiKey, keyHash);
  if (!verified || (kind === "partner" && !verified.partnerId) || (kind === "distributor" && !verified.distributorId)) return undefined;
  cache?.remember(keyHash, verified, readStartedAt);
  return verified;
}

/** The key's row, if it exists, is not revoked and matches the hash (compared in constant time); lastUsedAt kept. */
async function readKey(db: Db, apiKey: string, keyHash: string): Promise<VerifiedKey | undefined> {
  const [row] = await db.$queryRaw<
    Array<{
      id: string;
      key_hash: string;
      partner_id: string | null;
      distributor_id: string | null;
      partner_distributor_id: string | null;
      last_used_at: Date | null;
    }>
  >`SELECT k.id::text, k.key_hash, k.partner_id::text, k.distributor_id::text,
           p.distributor_id::text AS partner_distributor_id, k.last_used_at
    FROM api_keys k LEFT JOIN partners p ON p.id = k.partner_id
    WHERE k.prefix = ${storedKeyPrefix(apiKey)} AND k.revoked_at IS NULL`;
  if (!row) return undefined;
  const presented = Buffer.from(keyHash, "hex");
  const stored = Buffer.from(row.key_hash, "hex");
  if (presented.length !== stored.length || !timingSafeEqual(presented, stored)) return undefined;
  const now = Date.now();
  if (!row.last_used_at || now - row.last_used_at.getTime() > LAST_USED_RESOLUTION_MS) {
    await db.apiKey.update({ where: { id: row.id }, data: { lastUsedAt: new Date(now) } });
  }
  return {
    id: row.id,
    partnerId: row.partner_id,
    distributorId: row.distributor_id,
    partnerDistributorId: row.partner_distributor_id,
  };
}

/**
 * Checks SW-PARTNER-ID + SW-API-KEY. A partner key must belong to that partner; with
 * `allowDistributorKey`, a distributor key is accepted for one of the distributor's own partners.
 */
export async function authenticatePartner(
  db: Db,
  headers: HeaderSource,
  { allowDistributorKey }: { allowDistributorKey: boolean },
): Promise<PartnerCaller> {
  const partnerId = headers.get("sw-partner-id")?.trim();
  const apiKey = headers.get("sw-api-key")?.trim();
  if (!partnerId || !apiKey) throw unauthenticated(MISSING_PARTNER_HEADERS);
  if (!UUID_PATTERN.test(partnerId)) throw unauthenticated(INVALID_API_KEY);
  const key = await verifyKey(db, apiKey);
  if (!key) throw unauthenticated(INVALID_API_KEY);
  if (key.partnerId) {
    if (key.partnerId.toLowerCase() !== partnerId.toLowerCase() || !key.partnerDistributorId) {
      throw unauthenticated(INVALID_API_KEY);
    }
    return { partnerId: key.partnerId, distributorId: key.partnerDistributorId, apiKeyId: key.id, keyOwner: "partner" };
  }
  if (!allowDistributorKey || !key.distributorId) throw unauthenticated(INVALID_API_KEY);
  const partner = await db.partner.findFirst({
    where: { id: partnerId, distributorId: key.distributorId },
    select: { id: true },
  });
  if (!partner) throw unauthenticated(INVALID_API_KEY);
  return { partnerId: partner.id, distributorId: key.distributorId, apiKeyId: key.id, keyOwner: "distributor" };
}

/** Checks SW-DISTRIBUTOR-ID + SW-API-KEY: the key must be one of that distributor's. */
export async function authenticateDistributor(db: Db, headers: HeaderSource): Promise<DistributorCaller> {
  const distributorId = headers.get("sw-distributor-id")?.trim();
  const apiKey = headers.get("sw-api-key")?.trim();
  if (!distributorId || !apiKey) throw unauthenticated(MISSING_DISTRIBUTOR_HEADERS);
  if (!UUID_PATTERN.test(distributorId)) throw unauthenticated(INVALID_API_KEY);
  const key = await verifyKey(db, apiKey);
  if (!key?.distributorId || key.distributorId.toLowerCase() !== distributorId.toLowerCase()) {
    throw unauthenticated(INVALID_API_KEY);
  }
  return { distributorId: key.distributorId, apiKeyId: key.id };
}
