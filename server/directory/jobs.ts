import { z } from "zod";
import { config } from "../config";
import type { Queryable } from "../db/client";
import { defineJob } from "../jobs/definition";
import { type Schedule, scheduleJob, slotPayload } from "../jobs/schedules";
import { wakeJobWorkers } from "../jobs/wake";
import { UUID_PATTERN } from "../uuid";
import { syncDirectory } from "./sync";

/**
 * A connection's queued sync has the dedupe key `<prefix><connection id>`: one at a time per
 * connection; a sync asked for while one runs is one more sync after it (the directory may have
 * changed since the running one read it).
 */
export const DIRECTORY_SYNC_DEDUPE_PREFIX = "directory-sync:";

/** One sync of one directory connection (server/directory/sync.ts). */
export const directorySyncJob = defineJob({
  kind: "directory.sync",
  followUpWhileRunning: true,
  payload: z.object({ connectionId: z.string().regex(UUID_PATTERN, "a uuid") }),
  async run(db, { connectionId }) {
    await syncDirectory(db, connectionId);
  },
});

/**
 * The one place a directory sync is queued (connecting, Sync now, the schedule's fan-out): deduplicated
 * per connection. Call it in the transaction of the change that asks for it; wake the workers after.
 */
export async function requestDirectorySyncs(tx: Queryable, connectionIds: readonly string[]): Promise<number> {
  return directorySyncJob.enqueueMany(
    tx,
    connectionIds.map((connectionId) => ({ payload: { connectionId }, dedupeKey: `${DIRECTORY_SYNC_DEDUPE_PREFIX}${connectionId}` })),
  );
}

/**
 * Queues a sync of every connection whose last sync is DIRECTORY_SYNC_HOURS old (or that never
 * synced), of customers still monitored. Returns how many it queued.
 */
export async function enqueueDueDirectorySyncs(db: Queryable, hours = config.directorySyncHours()): Promise<number> {
  const due = await db.$queryRaw<Array<{ id: string }>>`
    SELECT dc.id::text FROM directory_connections dc JOIN customers c ON c.id = dc.customer_id
    WHERE c.status IN ('active', 'prospect')
      AND (dc.last_sync_at IS NULL OR dc.last_sync_at <= now() - make_interval(hours => ${hours}))
    ORDER BY dc.last_sync_at NULLS FIRST`;
  return requestDirectorySyncs(
    db,
    due.map((row) => row.id),
  );
}

export const directorySyncsDueJob = defineJob({
  kind: "directory.sync-due",
  payload: slotPayload,
  async run(db) {
    if ((await enqueueDueDirectorySyncs(db)) > 0) await wakeJobWorkers();
  },
});

/** Hourly: the connections due for a sync get one (every DIRECTORY_SYNC_HOURS; docs/directory.md). */
export const directorySyncSchedule: Schedule = scheduleJob(directorySyncsDueJob, { name: "directory-sync", every: "hour" });
