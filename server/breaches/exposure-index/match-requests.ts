import { z } from "zod";
import type { BulkTransaction } from "../../db/bulk-write";
import type { Queryable } from "../../db/client";
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

/** Run by matchNewExposuresJob (server/findings/jobs.ts). */
export const matchNewExposuresJobType = jobType(MATCH_NEW_EXPOSURES_JOB, matchRequest);

/**
 * Asks for the exposures of these catalogue breaches to be matched against active customers.
 * Call it in the transaction that added the breaches (or their exposures); wake the job workers
 * after the commit.
 */
export async function requestBreachMatching(tx: Queryable, breachIds: readonly string[]): Promise<void> {
  if (breachIds.length === 0) return;
  await matchNewExposuresJobType.enqueue(tx, { breachIds: [...new Set(breachIds)].sort() });
}

/** The same for what one accounts import added, queued in the import's own transaction. */
export async function requestImportMatching(tx: BulkTransaction, importId: number): Promise<void> {
  const { sql, params } = matchNewExposuresJobType.insertStatement({ importId });
  await tx.execute(sql, params);
}
