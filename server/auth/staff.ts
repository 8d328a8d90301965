import { hash } from "@node-rs/argon2";
import type { Db } from "../db/client";
import { Prisma } from "../db/client";
import { badRequest, conflict, notFound } from "../errors";

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const MIN_PASSWORD_LENGTH = 10;

/** A staff account for the admin UI; the password is stored only as an argon2id hash. */
export async function createStaffUser(
  db: Db,
  input: { distributorId: string; email: string; password: string; name?: string },
): Promise<{ id: string }> {
  const email = input.email.trim().toLowerCase();
  if (!EMAIL_PATTERN.test(email)) throw badRequest("Validation failed: email: Invalid email address");
  if (input.password.length < MIN_PASSWORD_LENGTH) {
    throw badRequest(`Validation failed: password: Password must be at least ${MIN_PASSWORD_LENGTH} characters`);
  }
  const distributor = await db.distributor.findUnique({ where: { id: input.distributorId }, select: { id: true } });
  if (!distributor) throw notFound("Distributor not found");
  try {
    return await db.staffUser.create({
      data: { distributorId: distributor.id, email, passwordHash: await hash(input.password), name: input.name ?? null },
      select: { id: true },
    });
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      throw conflict(`A staff user with e-mail ${email} already exists`);
    }
    throw error;
  }
}
