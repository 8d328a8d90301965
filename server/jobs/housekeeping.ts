import { deleteSpentStaffSignInRecords } from "../auth/staff-sessions";
import { defineJob } from "./definition";
import { scheduleJob } from "./schedules";

const FINISHED_JOB_RETENTION_DAYS = 7;
const SCHEDULE_SLOT_RETENTION_DAYS = 400;

/** Deletes finished jobs, old schedule slots and spent staff sessions and reset links so those tables stay small. */
export const housekeepingJob = defineJob<{ slot: string }>({
  kind: "housekeeping",
  async run(db) {
    await db.$executeRaw`
      DELETE FROM jobs WHERE status IN ('succeeded', 'failed')
        AND finished_at < now() - make_interval(days => ${FINISHED_JOB_RETENTION_DAYS})`;
    await db.$executeRaw`
      DELETE FROM scheduled_runs WHERE created_at < now() - make_interval(days => ${SCHEDULE_SLOT_RETENTION_DAYS})`;
    await deleteSpentStaffSignInRecords(db);
  },
});

export const housekeepingSchedule = scheduleJob(housekeepingJob, {
  name: "housekeeping",
  every: "day",
  hourUtc: 3,
});
