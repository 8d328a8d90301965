import { randomUUID } from "node:crypto";
import { recordAuditAfter } from "../audit/log";
import { config } from "../config";
import type { Db, Queryable } from "../db/client";
import { AppError, badRequest, notFound } from "../errors";
import { log } from "../log";
import { renderStaffPasswordResetEmail } from "../notifications/templates/staff-password-reset";
import { configuredTransport } from "../notifications/transport";
import { hashSecretToken, newSecretToken, SECRET_TOKEN_PATTERN } from "../secret-tokens";
import { consumeRateLimit } from "../rate-limit";
import { hashNewPassword, storePasswordHash } from "./staff-passwords";

/** A reset link works once, within the hour of its creation (docs/admin-ui.md). */
export const RESET_LINK_LIFETIME_SECONDS = 60 * 60;

/**
 * Reset requests per hour: per e-mail address and client address together, and per client
 * address, both refused with 429 to that client only; and the e-mails one address receives, after
 * which requests for it are answered as always but send nothing (the links already sent stay
 * valid), so nobody else's requests can refuse the owner (docs/admin-ui.md).
 */
export const RESET_LIMIT_PER_EMAIL_AND_CLIENT = 5;
export const RESET_LIMIT_PER_CLIENT = 20;
export const RESET_MAILS_PER_EMAIL = 5;
const RESET_WINDOW_SECONDS = 60 * 60;

/** What the forgot-password form answers to every accepted request, account or not. */
export const RESET_REQUESTED =
  "If an admin account has this e-mail address, a link to choose a new password is on its way. It works once, within an hour.";
export const RESET_RATE_LIMITED = "Too many password reset requests from this network. Wait a while (at most an hour), then try again.";
export const RESET_LINK_INVALID = "This password reset link is not valid. Ask for a new one.";
export const RESET_LINK_EXPIRED = "This password reset link has expired. Ask for a new one.";
export const RESET_LINK_USED = "This password reset link has already been used. Ask for a new one.";

export type ResetLinkState = "valid" | "invalid" | "expired" | "used";

export function staffPasswordResetUrl(token: string): string {
  return `${config.appUrl()}/admin/reset-password?token=${token}`;
}

async function issueResetLink(db: Queryable, staffUserId: string): Promise<{ url: string; expiresAt: Date }> {
  const token = newSecretToken();
  const [link] = await db.$queryRaw<Array<{ expiresAt: Date }>>`
    INSERT INTO staff_password_resets (staff_user_id, token_hash, expires_at)
    VALUES (${staffUserId}::uuid, ${hashSecretToken(token)}, now() + make_interval(secs => ${RESET_LINK_LIFETIME_SECONDS}))
    RETURNING expires_at AS "expiresAt"`;
  return { url: staffPasswordResetUrl(token), expiresAt: link!.expiresAt };
}

/** A reset link for an operator to hand over (`reset-staff-password` in the admin CLI). */
export async function createStaffPasswordResetLink(db: Db, emailInput: string): Promise<{ url: string; expiresAt: Date }> {
  const email = emailInput.trim().toLowerCase();
  const staff = await db.staffUser.findUnique({ where: { email }, select: { id: true } });
  if (!staff) throw notFound(`No staff user with e-mail ${email}`);
  // No log line: info goes to stdout, where the CLI prints only its JSON.
  return issueResetLink(db, staff.id);
}

/**
 * "Forgot password": counts the request per address and client and per client (a refusal says
 * so, the same for every address), then answers at once; an address whose e-mails for the hour
 * are spent gets the same answer and no new link. Looking up the account and sending its link happen
 * in `delivery`, after the answer, so neither the answer nor its timing tells whether the account
 * exists. The message goes through the notifications' mail transport (SMTP or .eml files) and is
 * not stored: the link is a secret. A failed send is logged; the staff member asks again.
 */
export async function requestStaffPasswordReset(
  db: Db,
  input: { email: string; clientAddress?: string },
): Promise<{ message: string; delivery: Promise<void> }> {
  const email = input.email.trim().toLowerCase();
  const client = input.clientAddress ?? "unknown";
  const limits = await Promise.all([
    consumeRateLimit(db, `staff-reset:email-client:${email} ${client}`, RESET_LIMIT_PER_EMAIL_AND_CLIENT, RESET_WINDOW_SECONDS),
    consumeRateLimit(db, `staff-reset:client:${client}`, RESET_LIMIT_PER_CLIENT, RESET_WINDOW_SECONDS),
  ]);
  const blocked = limits.find((decision) => !decision.allowed);
  if (blocked) throw new AppError("RATE_LIMITED", RESET_RATE_LIMITED, { "Retry-After": String(blocked.retryAfterSeconds) });
  const mailBudget = await consumeRateLimit(db, `staff-reset:mail:${email}`, RESET_MAILS_PER_EMAIL, RESET_WINDOW_SECONDS);
  if (!mailBudget.allowed) return { message: RESET_REQUESTED, delivery: Promise.resolve() };
  const delivery = sendResetLink(db, email).catch((error: unknown) => {
    log.error("staff password reset e-mail failed", { error });
  });
  return { message: RESET_REQUESTED, delivery };
}

async function sendResetLink(db: Db, email: string): Promise<void> {
  const staff = await db.staffUser.findUnique({ where: { email }, select: { id: true, email: true } });
  if (!staff) return;
  const { url } = await issueResetLink(db, staff.id);
  const rendered = await renderStaffPasswordResetEmail({
    url,
    minutes: RESET_LINK_LIFETIME_SECONDS / 60,
    adminUrl: `${config.appUrl()}/admin`,
  });
  const transport = configuredTransport();
  await transport.send({ notificationId: randomUUID(), to: staff.email, replyTo: null, attachments: [], ...rendered });
  log.info("staff password reset link sent", { staffUserId: staff.id, transport: transport.name });
}

/** Whether a link can still be used (the reset page shows its form only then); consumes nothing. */
export async function resetLinkState(db: Queryable, token: string): Promise<ResetLinkState> {
  if (!SECRET_TOKEN_PATTERN.test(token)) return "invalid";
  const [link] = await db.$queryRaw<Array<{ used: boolean; expired: boolean }>>`
    SELECT used_at IS NOT NULL AS used, expires_at <= now() AS expired
    FROM staff_password_resets WHERE token_hash = ${hashSecretToken(token)}`;
  if (!link) return "invalid";
  return link.used ? "used" : link.expired ? "expired" : "valid";
}

const REFUSALS: Record<Exclude<ResetLinkState, "valid">, string> = {
  invalid: RESET_LINK_INVALID,
  expired: RESET_LINK_EXPIRED,
  used: RESET_LINK_USED,
};

export function resetLinkRefusal(state: Exclude<ResetLinkState, "valid">): string {
  return REFUSALS[state];
}

/**
 * Sets a new password with a reset link. The password is checked first (a refused one leaves the
 * link usable); then one conditional UPDATE consumes the link (unused, not expired), so of any
 * number of simultaneous uses one succeeds, and in the same transaction the hash is replaced,
 * every session of the staff member ends and their other links are spent.
 */
export async function resetStaffPassword(db: Db, input: { token: string; newPassword: string }): Promise<{ email: string }> {
  const passwordHash = await hashNewPassword(input.newPassword);
  const state = await resetLinkState(db, input.token);
  if (state !== "valid") throw badRequest(resetLinkRefusal(state));
  const tokenHash = hashSecretToken(input.token);
  const result = await db.$transaction(async (tx) => {
    const [consumed] = await tx.$queryRaw<Array<{ staffUserId: string; email: string; distributorId: string }>>`
      UPDATE staff_password_resets AS link SET used_at = now()
      FROM staff_users AS staff
      WHERE link.token_hash = ${tokenHash} AND link.used_at IS NULL AND link.expires_at > now() AND staff.id = link.staff_user_id
      RETURNING staff.id::text AS "staffUserId", staff.email AS email, staff.distributor_id::text AS "distributorId"`;
    if (!consumed) return undefined;
    await storePasswordHash(tx, consumed.staffUserId, passwordHash, "password-reset");
    return consumed;
  });
  if (!result) {
    const now = await resetLinkState(db, input.token);
    throw badRequest(resetLinkRefusal(now === "valid" ? "used" : now));
  }
  log.info("staff password reset", { staffUserId: result.staffUserId });
  await recordAuditAfter(db, {
    distributorId: result.distributorId,
    actor: { kind: "staff", staffId: result.staffUserId, email: result.email },
    action: "staff.password-reset",
    target: { type: "staff", id: result.staffUserId },
  });
  return { email: result.email };
}
