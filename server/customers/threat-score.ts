import type { Queryable } from "../db/client";
import { CATEGORY_GROUPS, categoryGroupOf } from "../breaches/catalogue/categories";

/** The top of the scale (0 to 97; docs/threat-score.md). */
export const MAX_THREAT_SCORE = 97;
/** Exposure points at which the score reaches 1 - 1/e (about 63 %) of the top. */
const SATURATION_POINTS = 40;
const DAY_MS = 86_400_000;
/** A stealer log weighs this many times an ordinary breach of the same data (docs/threat-score.md says why). */
export const STEALER_LOG_WEIGHT = 2;

export interface ScoredExposure {
  dataClasses: readonly string[];
  breachDate: Date;
  /** Monitored addresses of the customer exposed in the breach. */
  emailCount: number;
  /** HIBP IsSpamList: a list of addresses gathered for sending spam, not a breach of a service. */
  isSpamList?: boolean;
  /** HIBP IsFabricated: the data is likely not real, so it proves no exposure. */
  isFabricated?: boolean;
  /** HIBP IsStealerLog: malware on a device captured the passwords typed into named websites. */
  isStealerLog?: boolean;
}

/** Highest severity among the breach's data classes that are scored (blacklisted ones are not). */
export function breachSeverity(dataClasses: readonly string[]): number {
  let severity = 0;
  for (const dataClass of dataClasses) {
    const group = CATEGORY_GROUPS[categoryGroupOf(dataClass)];
    if (!group.isBlacklist) severity = Math.max(severity, group.severity);
  }
  return severity;
}

/** Recent breaches weigh more: their data is more likely to still be valid and in use. */
export function recencyFactor(breachDate: Date, now: Date): number {
  const years = (now.getTime() - breachDate.getTime()) / (365.25 * DAY_MS);
  if (years <= 1) return 1;
  if (years <= 3) return 0.75;
  if (years <= 5) return 0.5;
  return 0.3;
}

/** More exposed addresses in one breach raise its weight, with diminishing returns. */
export function countFactor(emailCount: number): number {
  return 1 + Math.log2(Math.max(1, emailCount));
}

/** Spam lists and fabricated breaches count for nothing (docs/threat-score.md says why). */
export function exposurePoints(exposure: ScoredExposure, now: Date): number {
  if (exposure.isSpamList || exposure.isFabricated) return 0;
  const weight = exposure.isStealerLog ? STEALER_LOG_WEIGHT : 1;
  return breachSeverity(exposure.dataClasses) * recencyFactor(exposure.breachDate, now) * countFactor(exposure.emailCount) * weight;
}

/**
 * The threat score of a customer's unresolved exposures (docs/threat-score.md; the addresses of
 * directory users who left are not counted, server/monitored-mailboxes.ts):
 * round(97 * (1 - e^(-P / 40))), where P sums, over the unresolved breach instances,
 * severity x recency x (1 + log2(exposed addresses)), doubled for stealer logs, and 0 for spam
 * lists and fabricated breaches. No exposure is 0; the score approaches 97.
 */
export function threatScore(exposures: readonly ScoredExposure[], now = new Date()): number {
  const points = exposures.reduce((sum, exposure) => sum + exposurePoints(exposure, now), 0);
  return Math.min(MAX_THREAT_SCORE, Math.round(MAX_THREAT_SCORE * (1 - Math.exp(-points / SATURATION_POINTS))));
}

/** Recomputes and stores a customer's score from its unresolved instances; returns it. */
export async function refreshThreatScore(db: Queryable, customerId: string, now = new Date()): Promise<number> {
  return (await refreshThreatScores(db, [customerId], now)).get(customerId)!;
}

/** refreshThreatScore for many customers, in two statements; the scores by customer id. */
export async function refreshThreatScores(db: Queryable, customerIds: readonly string[], now = new Date()): Promise<Map<string, number>> {
  const ids = [...new Set(customerIds)];
  if (ids.length === 0) return new Map();
  // Raw SQL: it runs for every customer a scan or a match writes to, and costs less CPU than model
  // queries (measured: docs/measures.md, "Choices in the code").
  const rows = await db.$queryRaw<
    Array<{
      customerId: string;
      dataClasses: string[];
      breachDate: Date;
      emailCount: number;
      isSpamList: boolean;
      isFabricated: boolean;
      isStealerLog: boolean;
    }>
  >`
    WITH counted AS (
      SELECT cb.customer_id, cb.breach_id, cardinality(cb.emails) AS emails,
             cardinality(cb.emails) - (SELECT count(*) FROM monitored_assets a
                                       WHERE a.customer_id = cb.customer_id AND a.kind = 'email' AND NOT a.active
                                         AND a.value = ANY(cb.emails))::int AS "emailCount"
      FROM customer_breaches cb WHERE cb.customer_id = ANY(${ids}::uuid[]) AND NOT cb.resolved
    )
    SELECT counted.customer_id::text AS "customerId", b.data_classes AS "dataClasses", b.breach_date AS "breachDate",
           counted."emailCount", b.is_spam_list AS "isSpamList", b.is_fabricated AS "isFabricated", b.is_stealer_log AS "isStealerLog"
    FROM counted JOIN breaches b ON b.id = counted.breach_id
    -- Addresses of directory users who left do not count; an instance of theirs alone leaves the score.
    WHERE counted.emails = 0 OR counted."emailCount" > 0`;
  const exposures = new Map<string, ScoredExposure[]>(ids.map((id) => [id, []]));
  for (const row of rows) exposures.get(row.customerId)!.push(row);
  const scores = new Map([...exposures].map(([id, scored]) => [id, threatScore(scored, now)]));
  await db.$executeRaw`
    UPDATE customers c SET threat_score = s.score, updated_at = now()
    FROM unnest(${ids}::uuid[], ${ids.map((id) => scores.get(id)!)}::int[]) AS s(id, score)
    WHERE c.id = s.id`;
  return scores;
}
