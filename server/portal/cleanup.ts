import type { Queryable } from "../db/client";
import { defineJob } from "../jobs/definition";
import { scheduleJob, slotPayload } from "../jobs/schedules";

/** Spent links and finished sessions are kept this long (for support questions), then deleted. */
export const SIGN_IN_RECORD_RETENTION_DAYS = 30;

/**
 * Deletes magic links that can no longer sign anyone in and sessions (with their refresh
 * tokens) that ended or expired, once they are older than the retention period. A live
 * session keeps its rotated tokens: presenting one again must still be recognised as reuse.
 */
export async function deleteSpentSignInRecords(db: Queryable): Promise<{ links: number; sessions: number }> {
  const links = await db.$executeRaw`
    DELETE FROM magic_link_tokens
    WHERE used_at < now() - make_interval(days => ${SIGN_IN_RECORD_RETENTION_DAYS})
       OR expires_at < now() - make_interval(days => ${SIGN_IN_RECORD_RETENTION_DAYS})`;
  const sessions = await db.$executeRaw`
    DELETE FROM portal_sessions
    WHERE ended_at < now() - make_interval(days => ${SIGN_IN_RECORD_RETENTION_DAYS})
       OR expires_at < now() - make_interval(days => ${SIGN_IN_RECORD_RETENTION_DAYS})`;
  return { links, sessions };
}

export const portalCleanupJob = defineJob({
  kind: "portal.cleanup",
  payload: slotPayload,
  async run(db) {
    await deleteSpentSignInRecords(db);
  },
});

export const portalCleanupSchedule = scheduleJob(portalCleanupJob, {
  name: "portal-cleanup",
  every: "day",
  hourUtc: 3,
});
