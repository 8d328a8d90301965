import { defineJob } from "./definition";
import { scheduleJob } from "./schedules";

const FINISHED_JOB_RETENTION_DAYS = 7;
const SCHEDULE_SLOT_RETENTION_DAYS = 400;

/** Deletes finished jobs and old schedule slots so the queue tables stay small. */
export const housekeepingJob = defineJob<{ slot: string }>({
  kind: "housekeeping",
  async run(db) {
    await db.$executeRaw`
      DELETE FROM jobs WHERE status IN ('succeeded', 'failed')
        AND finished_at < now() - make_interval(days => ${FINISHED_JOB_RETENTION_DAYS})`;
    await db.$executeRaw`
      DELETE FROM scheduled_runs WHERE created_at < now() - make_interval(days => ${SCHEDULE_SLOT_RETENTION_DAYS})`;
  },
});

export const housekeepingSchedule = scheduleJob(housekeepingJob, {
  name: "housekeeping",
  every: "day",
  hourUtc: 3,
});
