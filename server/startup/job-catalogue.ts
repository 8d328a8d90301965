import { catalogueSyncJob, catalogueSyncSchedule } from "../breaches/exposure-index/catalogue-sync";
import { indexRangePrefixesJob } from "../breaches/exposure-index/range-prefixes";
import { dailyScanJob, dailyScanSchedule, matchNewExposuresJob, scanCustomerJob } from "../findings/jobs";
import { directorySyncJob, directorySyncSchedule, directorySyncsDueJob } from "../directory/jobs";
import { dnsRecheckJob, dnsRecheckSchedule } from "../domains/jobs";
import { createJobCatalogue } from "../jobs/catalogue";
import { housekeepingJob, housekeepingSchedule } from "./housekeeping";
import {
  alertDigestJob,
  alertDigestSchedule,
  alertDigestsJob,
  monthlyReportJob,
  monthlyReportSchedule,
  monthlyReportsJob,
  sendNotificationJob,
} from "../notifications/jobs";
import { portalCleanupJob, portalCleanupSchedule } from "../portal/cleanup";
import { psaScheduledSyncJob, psaSyncAllJob, psaSyncJob, psaSyncSchedule } from "../psa/jobs";
import { channelDigestJob, channelDigestSchedule, channelDigestsJob } from "../webhooks/channels/digests";
import { endpointHealthJob } from "../webhooks/health-notices";
import { webhookRetentionJob, webhookRetentionSchedule } from "../webhooks/retention";

/**
 * Every background job and schedule of the service, in one place: the in-process runner and the
 * Inngest functions run what is listed here, and nothing else. A domain exports its job
 * definitions (defineJob) and schedules (scheduleJob); adding background work means adding them
 * here. Schedules are checked in this order.
 */
export const jobCatalogue = createJobCatalogue({
  jobs: [
    housekeepingJob,
    // breaches: a customer's scan, the daily fan-out, incremental matching, the HIBP catalogue sync,
    // breach/range's hash prefixes of imported rows
    scanCustomerJob,
    dailyScanJob,
    matchNewExposuresJob,
    catalogueSyncJob,
    indexRangePrefixesJob,
    // domains: the hourly re-check of unverified domains' TXT records
    dnsRecheckJob,
    // directory: one connection's sync, and the hourly fan-out of those due
    directorySyncJob,
    directorySyncsDueJob,
    // psa: one connection's ticket sync (asked for, scheduled), and the hourly backstop for every connection
    psaSyncJob,
    psaScheduledSyncJob,
    psaSyncAllJob,
    // webhooks: the log's retention, the owner's notice of an endpoint's health change
    webhookRetentionJob,
    endpointHealthJob,
    // and the chat channels' daily or weekly digests
    channelDigestsJob,
    channelDigestJob,
    portalCleanupJob,
    // notifications: sending one message, the monthly reports' fan-out and one customer's report
    sendNotificationJob,
    monthlyReportsJob,
    monthlyReportJob,
    // and the daily or weekly alert digests
    alertDigestsJob,
    alertDigestJob,
  ],
  schedules: [
    housekeepingSchedule,
    dailyScanSchedule,
    catalogueSyncSchedule,
    webhookRetentionSchedule,
    portalCleanupSchedule,
    monthlyReportSchedule,
    alertDigestSchedule,
    channelDigestSchedule,
    dnsRecheckSchedule,
    directorySyncSchedule,
    psaSyncSchedule,
  ],
});
