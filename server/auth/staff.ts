import { hash, verify } from "@node-rs/argon2";
import type { Db } from "../db/client";
import { isUniqueViolation } from "../db/errors";
import { badRequest, conflict, notFound } from "../errors";
import { consumeRateLimit } from "../rate-limit";
import { hashNewPassword } from "./staff-passwords";

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A staff account for the admin UI; the password follows the new-password rule and is stored only as an argon2id hash. */
export async function createStaffUser(
  db: Db,
  input: { distributorId: string; email: string; password: string; name?: string },
): Promise<{ id: string }> {
  const email = input.email.trim().toLowerCase();
  if (!EMAIL_PATTERN.test(email)) throw badRequest("Validation failed: email: Invalid email address");
  const passwordHash = await hashNewPassword(input.password);
  const distributor = await db.distributor.findUnique({ where: { id: input.distributorId }, select: { id: true } });
  if (!distributor) throw notFound("Distributor not found");
  try {
    return await db.staffUser.create({
      data: { distributorId: distributor.id, email, passwordHash, name: input.name ?? null },
      select: { id: true },
    });
  } catch (error) {
    if (isUniqueViolation(error, "staff_users_email_key")) throw conflict(`A staff user with e-mail ${email} already exists`);
    throw error;
  }
}

/** Removes a staff account; its sessions and reset links go with it (so its cookies stop working at once). */
export async function removeStaffUser(db: Db, emailInput: string): Promise<{ id: string }> {
  const email = emailInput.trim().toLowerCase();
  const [removed] = await db.$queryRaw<Array<{ id: string }>>`DELETE FROM staff_users WHERE email = ${email} RETURNING id::text AS id`;
  if (!removed) throw notFound(`No staff user with e-mail ${email}`);
  return removed;
}

/** Sign-in attempts per e-mail address and per client address, per window. */
const LOGIN_LIMIT_PER_EMAIL = 10;
const LOGIN_LIMIT_PER_CLIENT = 50;
const LOGIN_WINDOW_SECONDS = 15 * 60;

export type StaffSignIn =
  | { ok: true; staff: { id: string; email: string; distributorId: string; name: string | null } }
  | { ok: false; reason: "invalid" | "rate-limited"; retryAfterSeconds?: number };

/**
 * Checks a staff member's e-mail and password for the admin UI's sign-in. Attempts are counted
 * per e-mail address and per client address before the password is checked, so guessing is
 * slowed for one account and from one place alike; an unknown address costs as much as a
 * wrong password (the hash is still verified against a dummy), so it reveals nothing.
 */
export async function authenticateStaff(db: Db, input: { email: string; password: string; clientAddress?: string }): Promise<StaffSignIn> {
  const email = input.email.trim().toLowerCase();
  const limits = await Promise.all([
    consumeRateLimit(db, `staff-login:email:${email}`, LOGIN_LIMIT_PER_EMAIL, LOGIN_WINDOW_SECONDS),
    consumeRateLimit(db, `staff-login:client:${input.clientAddress ?? "unknown"}`, LOGIN_LIMIT_PER_CLIENT, LOGIN_WINDOW_SECONDS),
  ]);
  const blocked = limits.find((decision) => !decision.allowed);
  if (blocked) return { ok: false, reason: "rate-limited", retryAfterSeconds: blocked.retryAfterSeconds };
  const staff = await db.staffUser.findUnique({
    where: { email },
    select: { id: true, email: true, distributorId: true, name: true, passwordHash: true },
  });
  const matches = await verify(staff?.passwordHash ?? (await dummyHash()), input.password).catch(() => false);
  if (!staff || !matches) return { ok: false, reason: "invalid" };
  await db.staffUser.update({ where: { id: staff.id }, data: { lastLoginAt: new Date() } });
  return { ok: true, staff: { id: staff.id, email: staff.email, distributorId: staff.distributorId, name: staff.name } };
}

let dummy: Promise<string> | undefined;
function dummyHash(): Promise<string> {
  dummy ??= hash("not a real password: keeps unknown e-mails as slow as wrong passwords");
  return dummy;
}
