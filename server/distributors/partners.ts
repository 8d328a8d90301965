import type { Db } from "../db/client";
import { badRequest, notFound } from "../errors";

export interface NewPartner {
  distributorId: string;
  name: string;
}

/** Creates a partner under a distributor (the admin CLI's create-partner). */
export async function createPartner(db: Db, input: NewPartner): Promise<{ id: string }> {
  const name = input.name.trim();
  if (!name) throw badRequest("Validation failed: name: Name is required");
  const distributor = await db.distributor.findUnique({ where: { id: input.distributorId }, select: { id: true } });
  if (!distributor) throw notFound("Distributor not found");
  return db.partner.create({ data: { distributorId: distributor.id, name }, select: { id: true } });
}
