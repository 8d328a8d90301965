import type { Db } from "../db/client";
import { defineJob } from "../jobs/definition";
import { type Schedule, scheduleJob, slotPayload } from "../jobs/schedules";
import { log } from "../log";
import { checkDnsVerification } from "./dns";
import type { CustomerDomainRow } from "./domains";

/** How long an unverified domain's TXT record is looked for again after its token was handed out. */
export const DNS_RECHECK_DAYS = 7;

/**
 * Re-checks the TXT record of every unverified domain whose token was handed out in the last
 * 7 days and that its customer (not offboarded) still monitors, one lookup at a time.
 * Returns how many were checked and how many that verified.
 */
export async function recheckDnsVerifications(db: Db): Promise<{ checked: number; verified: number }> {
  const rows = await db.$queryRaw<CustomerDomainRow[]>`
    SELECT cd.id::text, cd.customer_id::text AS "customerId", cd.domain, cd.status, cd.method, cd.verified_at AS "verifiedAt",
           cd.verified_by AS "verifiedBy", cd.note, cd.dns_token AS "dnsToken"
    FROM customer_domains cd
    JOIN customers c ON c.id = cd.customer_id AND c.status <> 'inactive'
    JOIN monitored_assets a ON a.customer_id = cd.customer_id AND a.kind = 'domain' AND a.value = cd.domain
    WHERE cd.status = 'unverified' AND cd.created_at > now() - make_interval(days => ${DNS_RECHECK_DAYS})
    ORDER BY cd.created_at`;
  let verified = 0;
  for (const row of rows) {
    if ((await checkDnsVerification(db, row)).status === "verified") verified++;
  }
  if (rows.length > 0) log.info("domain TXT records re-checked", { checked: rows.length, verified });
  return { checked: rows.length, verified };
}

export const dnsRecheckJob = defineJob({
  kind: "domains.recheck-dns",
  payload: slotPayload,
  async run(db) {
    await recheckDnsVerifications(db);
  },
});

/** Hourly: unverified domains are verified within the hour of their record appearing (docs/domains.md). */
export const dnsRecheckSchedule: Schedule = scheduleJob(dnsRecheckJob, { name: "domain-dns-recheck", every: "hour" });
