import type { Queryable } from "../db/client";

/** Who owns webhook endpoints and signing secrets: a partner or a distributor. */
export type WebhookOwner = { partnerId: string } | { distributorId: string };

/**
 * Locks the owner's row until the transaction ends, so changes to its signing secrets happen
 * one at a time (two concurrent cycles must not both demote the same active secret).
 */
export async function lockOwner(tx: Queryable, owner: WebhookOwner): Promise<void> {
  if ("partnerId" in owner) await tx.$queryRaw`SELECT 1 FROM partners WHERE id = ${owner.partnerId}::uuid FOR UPDATE`;
  else await tx.$queryRaw`SELECT 1 FROM distributors WHERE id = ${owner.distributorId}::uuid FOR UPDATE`;
}
