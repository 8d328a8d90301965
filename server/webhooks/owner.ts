import type { Queryable } from "../db/client";

/** Who owns webhook endpoints and signing secrets: a partner or a distributor. */
export type WebhookOwner = { partnerId: string } | { distributorId: string };

/** A stable string for maps keyed by owner. */
export function ownerKey(owner: WebhookOwner): string {
  return "partnerId" in owner ? `partner:${owner.partnerId}` : `distributor:${owner.distributorId}`;
}

/** The owner of a row that has both columns (exactly one of them set). */
export function ownerOfRow(row: { partnerId: string | null; distributorId: string | null }): WebhookOwner {
  return row.partnerId ? { partnerId: row.partnerId } : { distributorId: row.distributorId! };
}

/**
 * Locks the owner's row until the transaction ends, so changes to its signing secrets happen
 * one at a time (two concurrent cycles must not both demote the same active secret).
 */
export async function lockOwner(tx: Queryable, owner: WebhookOwner): Promise<void> {
  if ("partnerId" in owner) await tx.$queryRaw`SELECT 1 FROM partners WHERE id = ${owner.partnerId}::uuid FOR UPDATE`;
  else await tx.$queryRaw`SELECT 1 FROM distributors WHERE id = ${owner.distributorId}::uuid FOR UPDATE`;
}
