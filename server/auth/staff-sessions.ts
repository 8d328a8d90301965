import type { Queryable } from "../db/client";
import { log } from "../log";

/** Staff sessions last a working day at most, however active; a stolen cookie should not live long. */
export const STAFF_SESSION_SECONDS = 12 * 60 * 60;

export type StaffSessionEndReason = "sign-out" | "sign-out-everywhere" | "password-changed" | "password-reset" | "mfa-reset" | "removed";

/** Ended and expired staff sessions and spent reset links are kept this long, then deleted. */
const STAFF_SIGN_IN_RECORD_RETENTION_DAYS = 30;

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A new admin UI session of the staff member (at sign-in); the cookie carries its id. */
export async function startStaffSession(
  db: Queryable,
  staffUserId: string,
  method: "password" | "sso" = "password",
): Promise<{ id: string; expiresAt: Date }> {
  const [session] = await db.$queryRaw<Array<{ id: string; expiresAt: Date }>>`
    INSERT INTO staff_sessions (staff_user_id, expires_at, method)
    VALUES (${staffUserId}::uuid, now() + make_interval(secs => ${STAFF_SESSION_SECONDS}), ${method})
    RETURNING id::text AS id, expires_at AS "expiresAt"`;
  return session!;
}

/**
 * Whether the cookie's session still counts, checked on every request: the session exists, has
 * not ended nor passed its hard end, and belongs to this staff member of this distributor (a
 * removed account, or one moved to another distributor, has no live session).
 */
export async function isStaffSessionLive(
  db: Queryable,
  claims: { sessionId: string; staffUserId: string; distributorId: string },
): Promise<boolean> {
  if (!UUID_PATTERN.test(claims.sessionId) || !UUID_PATTERN.test(claims.staffUserId) || !UUID_PATTERN.test(claims.distributorId)) {
    return false;
  }
  const rows = await db.$queryRaw<Array<{ live: number }>>`
    SELECT 1 AS live FROM staff_sessions AS session
    JOIN staff_users AS staff ON staff.id = session.staff_user_id
    WHERE session.id = ${claims.sessionId}::uuid AND session.staff_user_id = ${claims.staffUserId}::uuid
      AND staff.distributor_id = ${claims.distributorId}::uuid
      AND session.ended_at IS NULL AND session.expires_at > now()`;
  return rows.length > 0;
}

/** Ends one session (sign-out). */
export async function endStaffSession(db: Queryable, sessionId: string, reason: StaffSessionEndReason): Promise<void> {
  if (!UUID_PATTERN.test(sessionId)) return;
  await db.$executeRaw`
    UPDATE staff_sessions SET ended_at = now(), end_reason = ${reason}
    WHERE id = ${sessionId}::uuid AND ended_at IS NULL`;
}

/**
 * Ends every live session of the staff member, but `except` (the session that changed the
 * password keeps going). Returns how many ended.
 */
export async function endStaffSessions(
  db: Queryable,
  staffUserId: string,
  reason: StaffSessionEndReason,
  options: { except?: string } = {},
): Promise<number> {
  const except = options.except && UUID_PATTERN.test(options.except) ? options.except : null;
  const ended = await db.$executeRaw`
    UPDATE staff_sessions SET ended_at = now(), end_reason = ${reason}
    WHERE staff_user_id = ${staffUserId}::uuid AND ended_at IS NULL AND expires_at > now()
      AND (${except}::uuid IS NULL OR id <> ${except}::uuid)`;
  if (ended > 0) log.info("staff sessions ended", { staffUserId, reason, sessions: ended });
  return ended;
}

/** Deletes staff sessions, reset links and invitations that ended, expired or were used over 30 days ago (housekeeping). */
export async function deleteSpentStaffSignInRecords(db: Queryable): Promise<{ sessions: number; resets: number; invitations: number }> {
  const sessions = await db.$executeRaw`
    DELETE FROM staff_sessions
    WHERE ended_at < now() - make_interval(days => ${STAFF_SIGN_IN_RECORD_RETENTION_DAYS})
       OR expires_at < now() - make_interval(days => ${STAFF_SIGN_IN_RECORD_RETENTION_DAYS})`;
  const resets = await db.$executeRaw`
    DELETE FROM staff_password_resets
    WHERE used_at < now() - make_interval(days => ${STAFF_SIGN_IN_RECORD_RETENTION_DAYS})
       OR expires_at < now() - make_interval(days => ${STAFF_SIGN_IN_RECORD_RETENTION_DAYS})`;
  const invitations = await db.$executeRaw`
    DELETE FROM staff_invitations
    WHERE spent_at < now() - make_interval(days => ${STAFF_SIGN_IN_RECORD_RETENTION_DAYS})
       OR expires_at < now() - make_interval(days => ${STAFF_SIGN_IN_RECORD_RETENTION_DAYS})`;
  return { sessions, resets, invitations };
}
