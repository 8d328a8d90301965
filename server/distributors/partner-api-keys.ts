import { issueApiKey, listApiKeys, revokeApiKey } from "../auth/api-keys";
import type { Db } from "../db/client";
import { log } from "../log";
import { requireOwnPartner } from "./partners";

export interface ApiKeySummary {
  id: string;
  prefix: string;
  label: string | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/**
 * A new API key for one of the distributor's partners. The clear key is in this answer only;
 * the database keeps its hash and its prefix. `issuedBy` is kept as the key's label.
 */
export async function issuePartnerApiKey(
  db: Db,
  distributorId: string,
  partnerId: string,
  issuedBy = "issued over the distributor API",
): Promise<{ id: string; apiKey: string }> {
  await requireOwnPartner(db, distributorId, partnerId);
  const issued = await issueApiKey(db, { partnerId }, issuedBy);
  log.info("partner API key issued", { distributorId, partnerId, apiKeyId: issued.id, issuedBy });
  return issued;
}

/** The partner's keys, newest first, revoked ones included (never the keys themselves). */
export async function listPartnerApiKeys(db: Db, distributorId: string, partnerId: string): Promise<ApiKeySummary[]> {
  await requireOwnPartner(db, distributorId, partnerId);
  const keys = await listApiKeys(db, { partnerId });
  return keys.map(({ id, prefix, label, createdAt, lastUsedAt, revokedAt }) => ({ id, prefix, label, createdAt, lastUsedAt, revokedAt }));
}

/** Revokes one of the partner's keys at once; revoking it again changes nothing. */
export async function revokePartnerApiKey(
  db: Db,
  distributorId: string,
  partnerId: string,
  keyId: string,
  revokedBy = "the distributor API",
): Promise<void> {
  await requireOwnPartner(db, distributorId, partnerId);
  await revokeApiKey(db, { partnerId }, keyId);
  log.info("partner API key revoked", { distributorId, partnerId, apiKeyId: keyId, revokedBy });
}
