import { createHash } from "node:crypto";
import { hash, verify } from "@node-rs/argon2";
import { clientKey, normalizeAddress } from "../client-address";
import type { Db, Queryable } from "../db/client";
import { isUniqueViolation } from "../db/errors";
import { badRequest, conflict, notFound } from "../errors";
import { log } from "../log";
import { metrics } from "../metrics/registry";
import { consumeRateLimit, countEvent, eventsInWindow } from "../rate-limit";
import { verifyStaffMfaCode } from "./staff-mfa";
import { hashNewPassword } from "./staff-passwords";
import type { StaffRole } from "./staff-roles";

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

/**
 * A staff account for the admin UI; the password follows the new-password rule and is stored only
 * as an argon2id hash (no password: an account that signs in by single sign-on). Without a role,
 * the distributor's first staff member is its owner and any later one an agent.
 */
export async function createStaffUser(
  db: Queryable,
  input: { distributorId: string; email: string; password?: string; name?: string; role?: StaffRole; ssoSubject?: string },
): Promise<{ id: string; role: StaffRole }> {
  const email = input.email.trim().toLowerCase();
  if (!EMAIL_PATTERN.test(email)) throw badRequest("Validation failed: email: Invalid email address");
  const passwordHash = input.password === undefined ? null : await hashNewPassword(input.password);
  const distributor = await db.distributor.findUnique({ where: { id: input.distributorId }, select: { id: true } });
  if (!distributor) throw notFound("Distributor not found");
  const role = input.role ?? ((await db.staffUser.count({ where: { distributorId: distributor.id } })) === 0 ? "owner" : "agent");
  try {
    return await db.staffUser.create({
      data: { distributorId: distributor.id, email, passwordHash, name: input.name ?? null, role, ssoSubject: input.ssoSubject ?? null },
      select: { id: true, role: true },
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

/**
 * Sign-in limits (docs/admin-ui.md, "Sign-in limits"), in one window: attempts per client address
 * and per (account, client address) are refused beyond their limits; failures per account only
 * slow that account's sign-ins down (accountSlowdownMs), so nobody else's attempts can refuse the
 * right password to its owner.
 */
const LOGIN_WINDOW_SECONDS = 15 * 60;
const LOGIN_LIMIT_PER_CLIENT = 50;
const LOGIN_LIMIT_PER_ACCOUNT_CLIENT = 10;
const ACCOUNT_FAILURES_BEFORE_SLOWDOWN = 10;
const ACCOUNT_SLOWDOWN_STEP_MS = 200;
const ACCOUNT_SLOWDOWN_MAX_MS = 2_000;
/** Characters of the account's SHA-256 (base64url) logged for an unknown account: enough to tell repeats apart. */
const LOGGED_ACCOUNT_HASH_LENGTH = 16;

export type StaffSignIn =
  | { ok: true; staff: { id: string; email: string; distributorId: string; name: string | null } }
  | {
      ok: false;
      /**
       * invalid: e-mail or password wrong; mfa-required: right, and the account asks for a code
       * (none given); mfa-invalid: the code is wrong or used; sso-required: the distributor
       * signs in by single sign-on only.
       */
      reason: "invalid" | "rate-limited" | "mfa-required" | "mfa-invalid" | "sso-required";
      retryAfterSeconds?: number;
    };

/** How long a sign-in to an account waits after `failures` failed ones in the window: none for the first 10, then 200 ms more per failure, at most 2 s. */
export function accountSlowdownMs(failures: number): number {
  return Math.min(ACCOUNT_SLOWDOWN_MAX_MS, Math.max(0, failures - ACCOUNT_FAILURES_BEFORE_SLOWDOWN) * ACCOUNT_SLOWDOWN_STEP_MS);
}

/**
 * Checks a staff member's e-mail and password for the admin UI's sign-in. `clientAddress` is the
 * request's client (server/client-address.ts); without one, every such attempt shares one bucket.
 * Attempts are counted before the password is checked. An unknown address costs as much as a
 * wrong password (the hash is still verified against a dummy), so it reveals nothing. Refusals
 * are logged (the staff id, or a hash of an unknown account; client, reason) and counted in /api/metrics. With the right password, an
 * account whose distributor requires single sign-on is refused unless it is break-glass, and an
 * account with MFA needs a code (`otp`: TOTP or a recovery code; its attempts counted apart).
 */
export async function authenticateStaff(
  db: Db,
  input: { email: string; password: string; otp?: string; clientAddress?: string },
): Promise<StaffSignIn> {
  const email = input.email.trim().toLowerCase();
  const clientAddress = normalizeAddress(input.clientAddress);
  const client = clientAddress ? clientKey(clientAddress) : "unknown";
  // Hashed: keys stay short, and e-mail addresses typed by strangers are not stored.
  const account = createHash("sha256").update(email).digest("base64url");
  const accountClientKey = `staff-login:account-client:${account}:${client}`;
  // Logged: the staff id once the account is known, else a hash of what was typed (a password typed
  // into the e-mail field must not reach the log).
  const refused = (reason: Extract<StaffSignIn, { ok: false }>, details: Record<string, unknown> = {}, staffId?: string): StaffSignIn => {
    log.warn("staff sign-in refused", {
      ...(staffId ? { staffId } : { accountHash: account.slice(0, LOGGED_ACCOUNT_HASH_LENGTH) }),
      client: clientAddress ?? "unknown",
      reason: reason.reason,
      ...details,
    });
    metrics().staffSignInsRefused.inc({ reason: reason.reason });
    return reason;
  };

  const [perClient, perAccountClient] = await Promise.all([
    consumeRateLimit(db, `staff-login:client:${client}`, LOGIN_LIMIT_PER_CLIENT, LOGIN_WINDOW_SECONDS),
    consumeRateLimit(db, accountClientKey, LOGIN_LIMIT_PER_ACCOUNT_CLIENT, LOGIN_WINDOW_SECONDS),
  ]);
  if (!perClient.allowed || !perAccountClient.allowed) {
    const limit = perClient.allowed ? "account-client" : "client";
    const retryAfterSeconds = Math.max(...[perClient, perAccountClient].filter((d) => !d.allowed).map((d) => d.retryAfterSeconds));
    const known = CONTROL_CHARACTER.test(email) ? null : await db.staffUser.findUnique({ where: { email }, select: { id: true } });
    return refused({ ok: false, reason: "rate-limited", retryAfterSeconds }, { limit }, known?.id);
  }

  const accountFailuresKey = `staff-login:account-failures:${account}`;
  const slowdown = accountSlowdownMs(await eventsInWindow(db, accountFailuresKey, LOGIN_WINDOW_SECONDS));
  if (slowdown > 0) await new Promise((resolve) => setTimeout(resolve, slowdown));

  // A NUL would fail the query itself; no account has a control character in its address.
  const staff = CONTROL_CHARACTER.test(email)
    ? null
    : await db.staffUser.findUnique({
        where: { email },
        select: { id: true, email: true, distributorId: true, name: true, passwordHash: true, breakGlass: true, totpEnabledAt: true },
      });
  const matches = await verify(staff?.passwordHash ?? (await dummyHash()), input.password).catch(() => false);
  if (!staff?.passwordHash || !matches) {
    await countEvent(db, accountFailuresKey, LOGIN_WINDOW_SECONDS);
    return refused({ ok: false, reason: "invalid" }, {}, staff?.id);
  }
  if (await passwordRefusedBySso(db, staff)) return refused({ ok: false, reason: "sso-required" }, {}, staff.id);
  if (staff.totpEnabledAt) {
    const otp = input.otp?.trim();
    if (!otp) return { ok: false, reason: "mfa-required" };
    const check = await verifyStaffMfaCode(db, staff.id, otp);
    if (check === "rate-limited") return refused({ ok: false, reason: "rate-limited" }, { limit: "mfa" }, staff.id);
    if (check !== "ok") return refused({ ok: false, reason: "mfa-invalid" }, {}, staff.id);
  }
  await Promise.all([
    db.staffUser.update({ where: { id: staff.id }, data: { lastLoginAt: new Date() } }),
    // The owner's own earlier typos from this client are forgiven.
    db.rateLimitCounter.deleteMany({ where: { key: accountClientKey } }),
  ]);
  return { ok: true, staff: { id: staff.id, email: staff.email, distributorId: staff.distributorId, name: staff.name } };
}

/** Whether passwords are refused for this account: its distributor requires single sign-on and it is not break-glass. */
export async function passwordRefusedBySso(db: Queryable, staff: { distributorId: string; breakGlass: boolean }): Promise<boolean> {
  if (staff.breakGlass) return false;
  const sso = await db.distributorSso.findUnique({ where: { distributorId: staff.distributorId }, select: { required: true } });
  return sso?.required === true;
}

let dummy: Promise<string> | undefined;
function dummyHash(): Promise<string> {
  dummy ??= hash("not a real password: keeps unknown e-mails as slow as wrong passwords");
  return dummy;
}
