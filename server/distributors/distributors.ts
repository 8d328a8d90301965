import type { Db } from "../db/client";
import { badRequest } from "../errors";

export async function createDistributor(db: Db, input: { name: string }): Promise<{ id: string }> {
  const name = input.name.trim();
  if (!name) throw badRequest("Validation failed: name: Name is required");
  return db.distributor.create({ data: { name }, select: { id: true } });
}
