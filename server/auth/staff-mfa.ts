import { createHash, randomBytes } from "node:crypto";
import { generateSecret, generateURI, verify } from "otplib";
import QRCode from "qrcode";
import { decryptSecret, encryptSecret } from "../app-key";
import type { Db, Queryable } from "../db/client";
import { AppError, badRequest, notFound } from "../errors";
import { log } from "../log";
import { consumeRateLimit } from "../rate-limit";
import { endStaffSessions } from "./staff-sessions";

/**
 * MFA for the admin UI (docs/admin-ui.md, "MFA"): TOTP (RFC 6238: SHA-1, 6 digits, 30 s) with an
 * authenticator app, enrolled by a QR code, and ten single-use recovery codes. Once enrolled, a
 * password sign-in asks for a code every time. The seed is stored encrypted with the app key; a
 * code is accepted once (the last accepted time step is kept); recovery codes are stored as
 * SHA-256 hashes and spent when used.
 */
export const RECOVERY_CODE_COUNT = 10;
const TOTP_ISSUER = "Exposure monitoring";
/** One time step either side of now, for clocks a little apart. */
const TOTP_TOLERANCE_SECONDS = 30;
/** Code attempts per staff member and window, at sign-in and at enrolment alike. */
const MFA_ATTEMPT_LIMIT = 10;
const MFA_WINDOW_SECONDS = 15 * 60;

export const MFA_ALREADY_ENROLLED = "MFA is already set up for this account; an owner can reset it";
export const MFA_NOT_STARTED = "Start the MFA set-up first";
export const MFA_CODE_WRONG = "The code is not right; check the authenticator app's clock and try the next code";
export const MFA_RATE_LIMITED = "Too many wrong codes. Wait a while (at most 15 minutes), then try again.";

const TOTP_CODE = /^\d{6}$/;
const RECOVERY_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";

function normalizeRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]/g, "");
}

function hashRecoveryCode(code: string): string {
  return createHash("sha256").update(normalizeRecoveryCode(code)).digest("hex");
}

/** Ten codes of ten characters (about 49 bits each), shown as `xxxxx-xxxxx`. */
function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const bytes = randomBytes(10);
    const chars = [...bytes].map((byte) => RECOVERY_ALPHABET[byte % RECOVERY_ALPHABET.length]).join("");
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

async function consumeMfaAttempt(db: Queryable, staffUserId: string): Promise<void> {
  const limit = await consumeRateLimit(db, `staff-mfa:${staffUserId}`, MFA_ATTEMPT_LIMIT, MFA_WINDOW_SECONDS);
  if (!limit.allowed) throw new AppError("RATE_LIMITED", MFA_RATE_LIMITED, { "Retry-After": String(limit.retryAfterSeconds) });
}

/**
 * Starts (or starts again) the enrolment: a new seed, stored but not yet in use, and what the app
 * needs (the otpauth URI, as a QR code and as text). The seed is in this answer only.
 */
export async function beginMfaEnrolment(db: Db, staffUserId: string): Promise<{ otpauthUri: string; qrDataUrl: string; secret: string }> {
  const staff = await db.staffUser.findUnique({ where: { id: staffUserId }, select: { email: true, totpEnabledAt: true } });
  if (!staff) throw notFound("Staff user not found");
  if (staff.totpEnabledAt) throw badRequest(MFA_ALREADY_ENROLLED);
  const secret = generateSecret();
  await db.staffUser.update({
    where: { id: staffUserId },
    data: { totpSecretCiphertext: encryptSecret(secret), totpLastStep: null },
  });
  const otpauthUri = generateURI({ issuer: TOTP_ISSUER, label: staff.email, secret });
  return { otpauthUri, qrDataUrl: await QRCode.toDataURL(otpauthUri, { errorCorrectionLevel: "M", margin: 2, width: 240 }), secret };
}

/** A TOTP code against the seed: the time step it matched, or undefined. */
async function matchTotp(secret: string, code: string, afterTimeStep: number | null): Promise<number | undefined> {
  if (!TOTP_CODE.test(code)) return undefined;
  const result = await verify({
    secret,
    token: code,
    epochTolerance: TOTP_TOLERANCE_SECONDS,
    ...(afterTimeStep === null ? {} : { afterTimeStep }),
  });
  return result.valid && "timeStep" in result ? result.timeStep : undefined;
}

/**
 * Finishes the enrolment with a first code from the app: MFA is on, and the ten recovery codes
 * are made and answered here, once.
 */
export async function confirmMfaEnrolment(db: Db, staffUserId: string, code: string): Promise<{ recoveryCodes: string[] }> {
  const staff = await db.staffUser.findUnique({
    where: { id: staffUserId },
    select: { totpSecretCiphertext: true, totpEnabledAt: true, totpLastStep: true },
  });
  if (!staff) throw notFound("Staff user not found");
  if (staff.totpEnabledAt) throw badRequest(MFA_ALREADY_ENROLLED);
  if (!staff.totpSecretCiphertext) throw badRequest(MFA_NOT_STARTED);
  await consumeMfaAttempt(db, staffUserId);
  const step = await matchTotp(decryptSecret(staff.totpSecretCiphertext), code.trim(), staff.totpLastStep);
  if (step === undefined) throw badRequest(MFA_CODE_WRONG);
  const recoveryCodes = newRecoveryCodes();
  await db.$transaction(async (tx) => {
    await tx.staffUser.update({ where: { id: staffUserId }, data: { totpEnabledAt: new Date(), totpLastStep: step } });
    await tx.staffRecoveryCode.deleteMany({ where: { staffUserId } });
    await tx.staffRecoveryCode.createMany({ data: recoveryCodes.map((one) => ({ staffUserId, codeHash: hashRecoveryCode(one) })) });
  });
  log.info("staff MFA enrolled", { staffUserId });
  return { recoveryCodes };
}

export type MfaCheck = "ok" | "wrong" | "rate-limited";

/**
 * A code at sign-in: a TOTP code not used before (its time step later than the last accepted
 * one, written in the same statement that checks it), or an unused recovery code, which is spent.
 * Attempts are counted per staff member.
 */
export async function verifyStaffMfaCode(db: Db, staffUserId: string, codeInput: string): Promise<MfaCheck> {
  try {
    await consumeMfaAttempt(db, staffUserId);
  } catch (error) {
    if (error instanceof AppError && error.code === "RATE_LIMITED") return "rate-limited";
    throw error;
  }
  const code = codeInput.trim();
  const staff = await db.staffUser.findUnique({
    where: { id: staffUserId },
    select: { totpSecretCiphertext: true, totpEnabledAt: true, totpLastStep: true },
  });
  if (!staff?.totpEnabledAt || !staff.totpSecretCiphertext) return "wrong";
  if (TOTP_CODE.test(code)) {
    const step = await matchTotp(decryptSecret(staff.totpSecretCiphertext), code, staff.totpLastStep);
    if (step === undefined) return "wrong";
    const taken = await db.$executeRaw`
      UPDATE staff_users SET totp_last_step = ${step}
      WHERE id = ${staffUserId}::uuid AND (totp_last_step IS NULL OR totp_last_step < ${step})`;
    return taken === 1 ? "ok" : "wrong";
  }
  const spent = await db.$executeRaw`
    UPDATE staff_recovery_codes SET used_at = now()
    WHERE staff_user_id = ${staffUserId}::uuid AND code_hash = ${hashRecoveryCode(code)} AND used_at IS NULL`;
  if (spent === 1) log.info("staff MFA recovery code used", { staffUserId });
  return spent === 1 ? "ok" : "wrong";
}

/** How many recovery codes the staff member has left. */
export async function unusedRecoveryCodes(db: Queryable, staffUserId: string): Promise<number> {
  return db.staffRecoveryCode.count({ where: { staffUserId, usedAt: null } });
}

/**
 * An owner resets a colleague's MFA (a lost phone): the seed and recovery codes are gone, and
 * every session of that staff member ends; their next password sign-in has no code to give (and
 * enrols again first where the distributor requires MFA).
 */
export async function resetStaffMfa(db: Db, distributorId: string, staffUserId: string): Promise<{ id: string; email: string }> {
  return db.$transaction(async (tx) => {
    const staff = await tx.staffUser.findFirst({ where: { id: staffUserId, distributorId }, select: { id: true, email: true } });
    if (!staff) throw notFound("Staff member not found");
    await tx.staffUser.update({
      where: { id: staff.id },
      data: { totpSecretCiphertext: null, totpEnabledAt: null, totpLastStep: null },
    });
    await tx.staffRecoveryCode.deleteMany({ where: { staffUserId: staff.id } });
    await endStaffSessions(tx, staff.id, "mfa-reset");
    return staff;
  });
}

/** The distributor's "MFA required" switch (owners, docs/admin-ui.md). */
export async function setStaffMfaRequired(db: Db, distributorId: string, required: boolean): Promise<{ mfaRequired: boolean }> {
  const updated = await db.distributor.update({
    where: { id: distributorId },
    data: { staffMfaRequired: required },
    select: { staffMfaRequired: true },
  });
  return { mfaRequired: updated.staffMfaRequired };
}
