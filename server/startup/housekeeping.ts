import { pruneAuditEntries } from "../audit/append-only";
import { deleteSpentStaffSignInRecords } from "../auth/staff-sessions";
import { config } from "../config";
import { defineJob } from "../jobs/definition";
import { scheduleJob, slotPayload } from "../jobs/schedules";

const FINISHED_JOB_RETENTION_DAYS = 7;
const SCHEDULE_SLOT_RETENTION_DAYS = 400;
/** Longer than any rate-limit window (the longest is the staff sign-in's 15 minutes). */
const RATE_LIMIT_COUNTER_RETENTION_HOURS = 24;

/**
 * Deletes finished jobs, old schedule slots, ended rate-limit counters, spent staff sessions, reset
 * links and invitations so those tables stay small, and audit rows past AUDIT_RETENTION_DAYS.
 */
export const housekeepingJob = defineJob({
  kind: "housekeeping",
  payload: slotPayload,
  async run(db) {
    await db.$executeRaw`
      DELETE FROM jobs WHERE status IN ('succeeded', 'failed')
        AND finished_at < now() - make_interval(days => ${FINISHED_JOB_RETENTION_DAYS})`;
    await db.$executeRaw`
      DELETE FROM scheduled_runs WHERE created_at < now() - make_interval(days => ${SCHEDULE_SLOT_RETENTION_DAYS})`;
    await db.$executeRaw`
      DELETE FROM rate_limit_counters WHERE window_start < now() - make_interval(hours => ${RATE_LIMIT_COUNTER_RETENTION_HOURS})`;
    await deleteSpentStaffSignInRecords(db);
    await pruneAuditEntries(db, config.auditRetentionDays());
  },
});

export const housekeepingSchedule = scheduleJob(housekeepingJob, {
  name: "housekeeping",
  every: "day",
  hourUtc: 3,
});
