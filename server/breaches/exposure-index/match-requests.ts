import { z } from "zod";
import type { BulkTransaction } from "../../db/bulk-write";
import type { Db, Queryable } from "../../db/client";
import { jobType } from "../../jobs/queue";

/**
 * Incremental matching (docs/breaches.md): new exposures matched against the monitored assets of
 * active customers, so only the customers concerned get their findings, without waiting for the
 * daily scan. One job kind, two payloads: the exposures one accounts import added, or every
 * exposure of some catalogue breaches (a catalogue sync that added breaches).
 */
export const MATCH_NEW_EXPOSURES_JOB = "breaches.match-new-exposures";

const matchRequest = z.union([z.object({ importId: z.number().int().positive() }), z.object({ breachIds: z.array(z.string().min(1)) })]);
export type MatchRequest = z.infer<typeof matchRequest>;

/**
 * Run by matchNewExposuresJob (server/findings/jobs.ts). Imports' requests share one dedupe key
 * (IMPORT_MATCHING_KEY) and each marks its import pending: one run matches every pending import
 * together, so the chunks of a file committed before it starts write each customer once; a
 * request while it runs is one follow-up run.
 */
export const matchNewExposuresJobType = jobType(MATCH_NEW_EXPOSURES_JOB, matchRequest, { followUpWhileRunning: true });
export const IMPORT_MATCHING_KEY = "match-imports";

/**
 * Asks for the exposures of these catalogue breaches to be matched against active customers.
 * Call it in the transaction that added the breaches (or their exposures); wake the job workers
 * after the commit.
 */
export async function requestBreachMatching(tx: Queryable, breachIds: readonly string[]): Promise<void> {
  if (breachIds.length === 0) return;
  await matchNewExposuresJobType.enqueue(tx, { breachIds: [...new Set(breachIds)].sort() });
}

/** The same for what one import (or stealer-log chunk) added, queued in the import's own transaction. */
export async function requestImportMatching(tx: BulkTransaction, importId: number): Promise<void> {
  await tx.execute("UPDATE exposure_imports SET match_pending = true WHERE id = $1", [importId]);
  const { sql, params } = matchNewExposuresJobType.insertStatement({ importId }, { dedupeKey: IMPORT_MATCHING_KEY });
  await tx.execute(sql, params);
}

/** The imports whose matching was requested and has not run to its end yet, with `importId` (a payload's). */
export async function importsToMatch(db: Db, importId: number): Promise<number[]> {
  const rows = await db.$queryRaw<Array<{ id: bigint }>>`
    SELECT id FROM exposure_imports WHERE match_pending OR id = ${importId}::bigint ORDER BY id`;
  return rows.map((row) => Number(row.id));
}

/** Records that a run matched these imports to its end. */
export async function markImportsMatched(db: Db, importIds: readonly number[]): Promise<void> {
  await db.$executeRaw`UPDATE exposure_imports SET match_pending = false WHERE id = ANY(${importIds as number[]}::bigint[]) AND match_pending`;
}
