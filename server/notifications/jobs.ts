import { defineJob } from "../jobs/definition";
import { scheduleJob, slotPayload } from "../jobs/schedules";
import { wakeJobWorkers } from "../jobs/wake";
import { alertDigestJobType, enqueueAlertDigests } from "./alert-digests";
import { queueAlertDigest } from "./breach-alerts";
import { deliverNotification } from "./delivery";
import { sendNotificationJobType } from "./messages";
import { enqueueMonthlyReports, monthlyReportJobType, queueMonthlyReport, reportedPeriod } from "./monthly-reports";

/** How long sent and failed messages are kept (the monthly report's change reads last month's). */
export const NOTIFICATION_RETENTION_DAYS = 400;

/** Sends one message: retried after 1, 2, 4 ... 60 minutes, SEND_ATTEMPTS attempts in all. */
export const sendNotificationJob = defineJob(sendNotificationJobType, {
  retryDelayMs: (attempt) => Math.min(60_000 * 2 ** Math.max(0, attempt - 1), 3_600_000),
  async run(db, payload, job) {
    await deliverNotification(db, payload.notificationId, { finalAttempt: job.attempts >= job.maxAttempts });
  },
});

/** One customer's monthly report. */
export const monthlyReportJob = defineJob(monthlyReportJobType, {
  async run(db, payload) {
    if ((await queueMonthlyReport(db, payload.customerId, payload.period)).length > 0) await wakeJobWorkers();
  },
});

/** The fan-out of a month's reports, and the pruning of old messages. */
export const monthlyReportsJob = defineJob({
  kind: "notifications.monthly-reports",
  payload: slotPayload,
  async run(db, payload) {
    await enqueueMonthlyReports(db, reportedPeriod(payload.slot));
    await wakeJobWorkers();
    await db.$executeRaw`
      DELETE FROM notifications WHERE status <> 'pending'
        AND created_at < now() - make_interval(days => ${NOTIFICATION_RETENTION_DAYS})`;
  },
});

/**
 * On the 1st of each month at 06:00 UTC (after the daily scan at 02:00), the reports of the
 * month that ended. Inngest runs it through the generic schedule function.
 */
export const monthlyReportSchedule = scheduleJob(monthlyReportsJob, {
  name: "monthly-report",
  every: "month",
  hourUtc: 6,
});

/** One customer's daily or weekly alert digest. */
export const alertDigestJob = defineJob(alertDigestJobType, {
  async run(db, payload) {
    if ((await queueAlertDigest(db, payload)).length > 0) await wakeJobWorkers();
  },
});

/** The fan-out of a day's alert digests (weekly ones on Mondays). */
export const alertDigestsJob = defineJob({
  kind: "notifications.alert-digests",
  payload: slotPayload,
  async run(db, payload) {
    await enqueueAlertDigests(db, payload.slot);
    await wakeJobWorkers();
  },
});

/** Every day at 07:00 UTC (after the daily scan at 02:00), the digests of what the quiet ledger held. */
export const alertDigestSchedule = scheduleJob(alertDigestsJob, { name: "alert-digest", every: "day", hourUtc: 7 });
