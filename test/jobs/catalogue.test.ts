import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createInngestFunctions } from "../../inngest/functions";
import type { Db } from "../../server/db/client";
import type { JobType } from "../../server/jobs/queue";
import { scanCustomerJobType } from "../../server/customers/scan-requests";
import { sendNotificationJobType } from "../../server/notifications/messages";
import { jobCatalogue } from "../../server/startup/job-catalogue";
import { ENDPOINT_HEALTH_JOB } from "../../server/webhooks/delivery-engine/outcomes";
import { endpointHealthJobType } from "../../server/webhooks/endpoint-health-job";

const SERVER = path.resolve(__dirname, "../../server");

/** The modules of server/ that declare a job type or define a job. */
async function modulesDeclaringJobs(): Promise<string[]> {
  const files = (await readdir(SERVER, { recursive: true }))
    .filter((file) => file.endsWith(".ts") && !file.startsWith(`db${path.sep}generated`))
    .map((file) => path.join(SERVER, file));
  const declaring: string[] = [];
  for (const file of files) {
    if (/\b(jobType|defineJob)\s*[<(]/.test(await readFile(file, "utf8"))) declaring.push(file);
  }
  return declaring;
}

function isJobType(value: unknown): value is JobType<never> {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as JobType<never>).kind === "string" &&
    typeof (value as JobType<never>).enqueue === "function"
  );
}

describe("the job catalogue", () => {
  it("lists the job kinds and schedules as stored in rows and named in the docs", () => {
    expect([...jobCatalogue.kinds].sort()).toEqual([
      "breaches.daily-scan",
      "breaches.index-range-prefixes",
      "breaches.match-new-exposures",
      "breaches.scan-customer",
      "breaches.sync-catalogue",
      "directory.sync",
      "directory.sync-due",
      "domains.recheck-dns",
      "housekeeping",
      "notifications.alert-digest",
      "notifications.alert-digests",
      "notifications.monthly-report",
      "notifications.monthly-reports",
      "notifications.send",
      "portal.cleanup",
      "psa.sync",
      "psa.sync-all",
      "psa.sync-at",
      "webhooks.channel-digest",
      "webhooks.channel-digests",
      "webhooks.endpoint-health",
      "webhooks.retention",
    ]);
    expect(jobCatalogue.schedules.map(({ name, every, hourUtc, jobKind }) => ({ name, every, hourUtc, jobKind }))).toEqual([
      { name: "housekeeping", every: "day", hourUtc: 3, jobKind: "housekeeping" },
      { name: "daily-scan", every: "day", hourUtc: 2, jobKind: "breaches.daily-scan" },
      { name: "catalogue-sync", every: "day", hourUtc: 1, jobKind: "breaches.sync-catalogue" },
      { name: "webhook-retention", every: "day", hourUtc: 3, jobKind: "webhooks.retention" },
      { name: "portal-cleanup", every: "day", hourUtc: 3, jobKind: "portal.cleanup" },
      { name: "monthly-report", every: "month", hourUtc: 6, jobKind: "notifications.monthly-reports" },
      { name: "alert-digest", every: "day", hourUtc: 7, jobKind: "notifications.alert-digests" },
      { name: "channel-digest", every: "day", hourUtc: 7, jobKind: "webhooks.channel-digests" },
      { name: "domain-dns-recheck", every: "hour", hourUtc: undefined, jobKind: "domains.recheck-dns" },
      { name: "directory-sync", every: "hour", hourUtc: undefined, jobKind: "directory.sync-due" },
      { name: "psa-sync", every: "hour", hourUtc: undefined, jobKind: "psa.sync-all" },
    ]);
  });

  it("holds a definition for every job type server/ declares, so every job enqueued anywhere has a runner", async () => {
    const declared: Array<{ module: string; name: string; type: JobType<never> }> = [];
    for (const file of await modulesDeclaringJobs()) {
      const exports = (await import(file)) as Record<string, unknown>;
      for (const [name, value] of Object.entries(exports)) {
        if (isJobType(value)) declared.push({ module: path.relative(SERVER, file), name, type: value });
      }
    }
    expect(declared.length).toBeGreaterThanOrEqual(jobCatalogue.kinds.length);
    for (const { module, name, type } of declared) {
      const definition = jobCatalogue.definition(type.kind);
      expect(definition, `${module}: ${name} (${type.kind})`).toBeDefined();
      expect(definition!.maxAttempts, `${module}: ${name} (${type.kind})`).toBe(type.maxAttempts);
    }
  });

  it("is what the Inngest functions drive: a cron per schedule (the daily scan's own function for it)", () => {
    const ids = createInngestFunctions(async () => ({}) as Db, jobCatalogue).map((fn) => fn.id());
    for (const schedule of jobCatalogue.schedules) {
      expect(ids).toContain(schedule.dedicatedInngestFunction ? "breaches-daily-scan" : `schedule-${schedule.name}`);
    }
    expect(ids).toContain("drain-jobs");
  });

  it("names the health notice's kind as the delivery engine writes it", () => {
    expect(endpointHealthJobType.kind).toBe(ENDPOINT_HEALTH_JOB);
  });
});

/** Enqueuing is typed: a wrong payload does not compile (checked by `npm run typecheck`, never run). */
export function enqueueingIsTyped(db: Db) {
  // @ts-expect-error a scan reason the scanner does not know
  void scanCustomerJobType.enqueue(db, { customerId: "c", reason: "weekly" });
  // @ts-expect-error a send job names its message
  void sendNotificationJobType.enqueue(db, { customerId: "c" });
  // @ts-expect-error a fan-out's entries carry the payload type too
  void sendNotificationJobType.enqueueMany(db, [{ payload: { notificationId: 1 } }]);
}
