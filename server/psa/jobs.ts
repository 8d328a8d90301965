import { config } from "../config";
import type { Db } from "../db/client";
import { PSA_SYNC_DEDUPE_PREFIX, psaSyncJobType } from "../findings/psa-requests";
import { defineJob } from "../jobs/definition";
import { jobType } from "../jobs/queue";
import { type Schedule, scheduleJob, slotPayload } from "../jobs/schedules";
import { wakeJobWorkers } from "../jobs/wake";
import { log } from "../log";
import { PsaError } from "./adapter";
import { adapterFor, markPsaFailing } from "./connections";
import { currentDigestSlot, digestSlotDue } from "./digest";
import { pollClosedTickets } from "./poll";
import { deliverDueTickets, recordTickets } from "./sync";

/**
 * A connection's sync runs when findings ask for it (psa-sync:<id>), at the time its next retry
 * or poll is due (psa-sync-at:<id>:<minute>, one job per distinct minute), and hourly for every
 * connection as a backstop. Runs of one connection take its lease, so they never overlap.
 */
const RUN_LEASE_MS = 10 * 60_000;
const LEASE_BUSY_RETRY_MS = 30_000;

export async function runPsaSync(db: Db, connectionId: string): Promise<void> {
  const leased = await db.$executeRaw`
    UPDATE psa_connections SET run_lease_until = now() + make_interval(secs => ${RUN_LEASE_MS / 1000})
    WHERE id = ${connectionId}::uuid AND (run_lease_until IS NULL OR run_lease_until < now())`;
  if (leased === 0) {
    if (await db.psaConnection.count({ where: { id: connectionId } }))
      await requestPsaSyncAt(db, connectionId, new Date(Date.now() + LEASE_BUSY_RETRY_MS));
    return;
  }
  try {
    const connection = await db.psaConnection.findUnique({ where: { id: connectionId } });
    if (!connection || connection.state === "failing") return;
    // With a digest, new tickets and notes wait for the slot; retries and closes go as usual.
    const slotDue = digestSlotDue(connection);
    if (slotDue) await recordTickets(db, connection);
    const adapter = adapterFor(connection);
    const delivered = await deliverDueTickets(db, connection, adapter, { notes: slotDue });
    if (delivered === "auth") return;
    if (slotDue && delivered === "done" && connection.digest !== "off") {
      await db.psaConnection.update({ where: { id: connectionId }, data: { lastDigestSlot: currentDigestSlot(connection.digest) } });
    }
    const pollEvery = config.psaPollMinutes() * 60_000;
    if (!connection.lastPolledAt || connection.lastPolledAt.getTime() + pollEvery <= Date.now()) {
      try {
        await pollClosedTickets(db, connection, adapter);
      } catch (error) {
        if (!(error instanceof PsaError)) throw error;
        if (error.kind === "auth") return void (await markPsaFailing(db, connection.id, error.message));
        log.warn("psa poll failed; tried again at the next poll", { connectionId, error: error.message });
        await db.psaConnection.update({ where: { id: connectionId }, data: { lastPolledAt: new Date() } });
      }
    }
    await requestPsaSyncAt(db, connectionId, await nextRunAt(db, connectionId, delivered === "more"));
  } finally {
    await db.psaConnection.updateMany({ where: { id: connectionId }, data: { runLeaseUntil: null } });
  }
}

/** The earliest of: now (more is due), the next ticket retry, the next poll. */
async function nextRunAt(db: Db, connectionId: string, more: boolean): Promise<Date> {
  if (more) return new Date();
  const [retry, connection] = await Promise.all([
    db.psaTicket.findFirst({
      where: { connectionId, closedAt: null, nextAttemptAt: { not: null } },
      orderBy: { nextAttemptAt: "asc" },
      select: { nextAttemptAt: true },
    }),
    db.psaConnection.findUnique({ where: { id: connectionId }, select: { lastPolledAt: true } }),
  ]);
  const poll = (connection?.lastPolledAt?.getTime() ?? Date.now()) + config.psaPollMinutes() * 60_000;
  return new Date(Math.min(poll, retry?.nextAttemptAt?.getTime() ?? Infinity));
}

/** A scheduled run: one job per connection and minute, so runs that agree on the time share it. */
const psaScheduledSyncJobType = jobType("psa.sync-at", psaSyncJobType.payload);

export async function requestPsaSyncAt(db: Db, connectionId: string, at: Date): Promise<void> {
  const minute = new Date(Math.ceil(at.getTime() / 60_000) * 60_000);
  const runAt = at.getTime() <= Date.now() ? new Date() : minute;
  await psaScheduledSyncJobType.enqueue(db, { connectionId }, { runAt, dedupeKey: `psa-sync-at:${connectionId}:${minute.toISOString()}` });
  if (runAt.getTime() <= Date.now()) await wakeJobWorkers();
}

export const psaSyncJob = defineJob(psaSyncJobType, {
  async run(db, { connectionId }) {
    await runPsaSync(db, connectionId);
  },
});

export const psaScheduledSyncJob = defineJob(psaScheduledSyncJobType, {
  async run(db, { connectionId }) {
    await runPsaSync(db, connectionId);
  },
});

/** Hourly: every connection gets a run (a chain of scheduled runs broken by a failure starts again). */
export const psaSyncAllJob = defineJob({
  kind: "psa.sync-all",
  payload: slotPayload,
  async run(db) {
    const connections = await db.psaConnection.findMany({ select: { id: true } });
    const queued = await psaSyncJobType.enqueueMany(
      db,
      connections.map(({ id }) => ({ payload: { connectionId: id }, dedupeKey: `${PSA_SYNC_DEDUPE_PREFIX}${id}` })),
    );
    if (queued > 0) await wakeJobWorkers();
  },
});

export const psaSyncSchedule: Schedule = scheduleJob(psaSyncAllJob, { name: "psa-sync", every: "hour" });
