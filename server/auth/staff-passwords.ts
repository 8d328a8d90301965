import { hash, verify } from "@node-rs/argon2";
import { dictionary } from "@zxcvbn-ts/language-common";
import { z } from "zod";
import type { Db, Queryable } from "../db/client";
import { AppError, badRequest, notFound } from "../errors";
import { log } from "../log";
import { consumeRateLimit } from "../rate-limit";
import { endStaffSessions, type StaffSessionEndReason } from "./staff-sessions";

/** The rule for a new staff password (docs/admin-ui.md); existing shorter ones still sign in. */
export const MIN_PASSWORD_LENGTH = 12;
/** Beyond any passphrase; keeps one request from making argon2 hash megabytes. */
export const MAX_PASSWORD_LENGTH = 256;

export const PASSWORD_TOO_SHORT = `Password must be at least ${MIN_PASSWORD_LENGTH} characters`;
export const PASSWORD_TOO_LONG = `Password must be at most ${MAX_PASSWORD_LENGTH} characters`;
export const PASSWORD_TOO_COMMON = "This password is on a list of the most common passwords; choose another";
export const WRONG_CURRENT_PASSWORD = "The current password is not right";
export const NO_PASSWORD_TO_CHANGE = "This account signs in with single sign-on and has no password to change";
export const PASSWORD_UNCHANGED = "The new password must be different from the current one";

let commonPasswords: Set<string> | undefined;

/** The 49,000 most common passwords of @zxcvbn-ts/language-common, compared ignoring case. */
function isCommonPassword(password: string): boolean {
  commonPasswords ??= new Set(dictionary["passwords-common"].map((entry) => entry.toLowerCase()));
  return commonPasswords.has(password.toLowerCase());
}

/** Why a new password is refused, or undefined when it is acceptable. */
export function newPasswordProblem(password: string): string | undefined {
  if (password.length < MIN_PASSWORD_LENGTH) return PASSWORD_TOO_SHORT;
  if (password.length > MAX_PASSWORD_LENGTH) return PASSWORD_TOO_LONG;
  if (isCommonPassword(password)) return PASSWORD_TOO_COMMON;
  return undefined;
}

/** The new-password field of the UI forms: the same rule, reported at the field. */
export const newPasswordSchema = z.string().superRefine((value, context) => {
  const problem = newPasswordProblem(value);
  if (problem) context.addIssue({ code: "custom", message: problem });
});

/** The argon2id hash of an acceptable new password; a refused one is a 400 with the rule's words. */
export async function hashNewPassword(password: string): Promise<string> {
  const problem = newPasswordProblem(password);
  if (problem) throw badRequest(`Validation failed: password: ${problem}`);
  return hash(password);
}

/**
 * Stores a new password hash and, in the same transaction, ends the staff member's sessions
 * (all but `keepSessionId`) and spends their unused reset links: whoever knew the old password
 * or held an old cookie or link is out.
 */
export async function replaceStaffPasswordHash(
  db: Db,
  staffUserId: string,
  passwordHash: string,
  reason: Extract<StaffSessionEndReason, "password-changed" | "password-reset">,
  keepSessionId?: string,
): Promise<{ endedSessions: number }> {
  return db.$transaction((tx) => storePasswordHash(tx, staffUserId, passwordHash, reason, keepSessionId));
}

/** replaceStaffPasswordHash inside the caller's transaction. */
export async function storePasswordHash(
  tx: Queryable,
  staffUserId: string,
  passwordHash: string,
  reason: Extract<StaffSessionEndReason, "password-changed" | "password-reset">,
  keepSessionId?: string,
): Promise<{ endedSessions: number }> {
  await tx.$executeRaw`UPDATE staff_users SET password_hash = ${passwordHash} WHERE id = ${staffUserId}::uuid`;
  await tx.$executeRaw`UPDATE staff_password_resets SET used_at = now() WHERE staff_user_id = ${staffUserId}::uuid AND used_at IS NULL`;
  const endedSessions = await endStaffSessions(tx, staffUserId, reason, { except: keepSessionId });
  log.info("staff password replaced", { staffUserId, reason });
  return { endedSessions };
}

/** Attempts at the current password per staff member and window (a stolen cookie cannot guess it freely). */
const CHANGE_LIMIT = 10;
const CHANGE_WINDOW_SECONDS = 15 * 60;

/**
 * A signed-in staff member changes their own password: the current one must be right and the new
 * one must follow the rule. Their other sessions end; the one that made the change goes on.
 */
export async function changeStaffPassword(
  db: Db,
  input: { staffUserId: string; currentPassword: string; newPassword: string; sessionId?: string },
): Promise<{ endedSessions: number }> {
  const staff = await db.staffUser.findUnique({ where: { id: input.staffUserId }, select: { id: true, passwordHash: true } });
  if (!staff) throw notFound("Staff user not found");
  const limit = await consumeRateLimit(db, `staff-password-change:${staff.id}`, CHANGE_LIMIT, CHANGE_WINDOW_SECONDS);
  if (!limit.allowed) {
    throw new AppError("RATE_LIMITED", "Too many attempts at the current password. Wait a while (at most 15 minutes), then try again.", {
      "Retry-After": String(limit.retryAfterSeconds),
    });
  }
  if (!staff.passwordHash) throw badRequest(NO_PASSWORD_TO_CHANGE);
  if (!(await verify(staff.passwordHash, input.currentPassword).catch(() => false))) throw badRequest(WRONG_CURRENT_PASSWORD);
  if (input.newPassword === input.currentPassword) throw badRequest(PASSWORD_UNCHANGED);
  return replaceStaffPasswordHash(db, staff.id, await hashNewPassword(input.newPassword), "password-changed", input.sessionId);
}
