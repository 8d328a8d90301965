import { z } from "zod";
import { Prisma, type Queryable } from "../db/client";
import { jobType } from "../jobs/queue";
import { UUID_PATTERN } from "../uuid";

/**
 * The PSA sync's job type (server/psa/ runs it), declared here because findings ask for it: a
 * finding recorded or a breach instance resolved is work for the partner's PSA, if it has one.
 * One pending run per connection (`psa-sync:<id>`); a request while one runs is one more run.
 */
export const PSA_SYNC_DEDUPE_PREFIX = "psa-sync:";

export const psaSyncJobType = jobType("psa.sync", z.object({ connectionId: z.string().regex(UUID_PATTERN, "a uuid") }), {
  followUpWhileRunning: true,
});

/**
 * Queues a sync of the partner's PSA connection (of each partner's, given several), none when it
 * has none. Call it in the change's transaction.
 */
export async function requestPartnerPsaSync(tx: Queryable, partnerId: string | readonly string[]): Promise<void> {
  const partnerIds = typeof partnerId === "string" ? [partnerId] : [...partnerId];
  if (partnerIds.length === 0) return;
  await tx.$executeRaw(
    psaSyncJobType.insertSelected(Prisma.sql`
      SELECT jsonb_build_object('connectionId', id::text) AS payload, ${PSA_SYNC_DEDUPE_PREFIX} || id::text AS dedupe_key
      FROM psa_connections WHERE partner_id = ANY(${partnerIds}::uuid[])`),
  );
}
