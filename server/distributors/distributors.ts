import type { Db } from "../db/client";
import type { DomainPolicy } from "../db/generated/enums";
import { badRequest } from "../errors";

/** A new distributor; its domain policy defaults to `verified` (docs/domains.md). */
export async function createDistributor(db: Db, input: { name: string; domainPolicy?: DomainPolicy }): Promise<{ id: string }> {
  const name = input.name.trim();
  if (!name) throw badRequest("Validation failed: name: Name is required");
  return db.distributor.create({ data: { name, domainPolicy: input.domainPolicy ?? "verified" }, select: { id: true } });
}
