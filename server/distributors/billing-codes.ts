import type { Db } from "../db/client";
import { Prisma } from "../db/client";
import { badRequest, conflict, notFound } from "../errors";

export async function createBillingCode(
  db: Db,
  input: { distributorId: string; code: string; price: number },
): Promise<{ id: number }> {
  const code = input.code.trim();
  if (!code) throw badRequest("Validation failed: code: Code is required");
  if (!Number.isFinite(input.price) || input.price < 0) {
    throw badRequest("Validation failed: price: Price must be a number >= 0");
  }
  const distributor = await db.distributor.findUnique({ where: { id: input.distributorId }, select: { id: true } });
  if (!distributor) throw notFound("Distributor not found");
  try {
    return await db.billingCode.create({
      data: { distributorId: distributor.id, code, price: new Prisma.Decimal(input.price.toFixed(2)) },
      select: { id: true },
    });
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      throw conflict(`Billing code ${code} already exists`);
    }
    throw error;
  }
}
