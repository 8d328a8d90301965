import { createHash } from "node:crypto";
import { z } from "zod";
import type { BulkTransaction } from "../../db/bulk-write";
import type { Db, Queryable } from "../../db/client";
import { defineJob } from "../../jobs/definition";
import { jobType } from "../../jobs/queue";
import { wakeJobWorkers } from "../../jobs/wake";

/**
 * breach/range's column (docs/breaches.md, "Look up addresses by hash prefix"): the first 24 bits
 * of each row's SHA-1, breach_exposures.email_sha1_prefix. The imports write rows without it (their
 * COPY path stays as it was) and queue this job, which runs after they commit; rows written otherwise
 * (insertExposures) carry it from the start. SHA-1 is computed here, not in SQL: PostgreSQL has it
 * only in pgcrypto, which the embedded database does not load.
 */
export const INDEX_RANGE_PREFIXES_JOB = "breaches.index-range-prefixes";

/** What an import added (its exposure_imports id), or a range of the table's pages (the start-up fill, a run's rest). */
const rangePrefixRequest = z.union([
  z.object({ importId: z.number().int().positive() }),
  z.object({ fromPage: z.number().int().nonnegative(), toPage: z.number().int().nonnegative() }),
]);
export type RangePrefixRequest = z.infer<typeof rangePrefixRequest>;

export const indexRangePrefixesJobType = jobType(INDEX_RANGE_PREFIXES_JOB, rangePrefixRequest);

/**
 * Table pages per batch (one transaction): some 2,700 rows. 200,000 rows on this machine: as fast as
 * 128 pages (2.1 s on PostgreSQL, 3.6 s on PGlite), and a batch holds the embedded database's one
 * connection for 43 ms instead of 227 ms (docs/measures.md, "Choices in the code").
 */
export const RANGE_PREFIX_BATCH_PAGES = 32;
/** One run stops after this long and queues the rest, so it ends well inside the job's lease. */
const RUN_MS = 60_000;

/** The first 24 bits of the SHA-1 of a normalized address, as breach_exposures.email_sha1_prefix holds them. */
export function emailSha1Prefix(email: string): number {
  return createHash("sha1").update(email).digest().readUIntBE(0, 3);
}

/**
 * Asks for the prefixes of what one import added, in the import's own transaction (as its
 * matching is asked for): the job is there exactly when the rows are, and runs after the commit.
 */
export async function requestRangePrefixes(tx: BulkTransaction, importId: number): Promise<void> {
  const { sql, params } = indexRangePrefixesJobType.insertStatement({ importId });
  await tx.execute(sql, params);
}

/** The migration that added the column: when a start applies it, the rows already there are filled. */
export const RANGE_PREFIX_MIGRATION = "20261206185211_breach_range_prefixes";

/**
 * The start-up fill: a database whose rows predate the column gets one job over the whole table.
 * Queued only when the table has rows, so new (and test) databases start without it.
 */
export async function requestRangePrefixesOfExistingRows(db: Queryable): Promise<boolean> {
  const [{ pages } = { pages: 0 }] = await db.$queryRaw<Array<{ pages: number }>>`
    SELECT CASE WHEN EXISTS (SELECT 1 FROM breach_exposures)
      THEN (pg_relation_size('breach_exposures') / current_setting('block_size')::int)::int ELSE 0 END AS pages`;
  if (pages === 0) return false;
  await indexRangePrefixesJobType.enqueue(db, { fromPage: 0, toPage: pages }, { dedupeKey: `${INDEX_RANGE_PREFIXES_JOB}:existing` });
  return true;
}

/** The pages holding an import's rows (min and max ctid through the import_id BRIN index); undefined when it added none. */
async function pagesOfImport(db: Db, importId: number): Promise<{ fromPage: number; toPage: number } | undefined> {
  const [row] = await db.$queryRaw<Array<{ first: number | null; last: number | null }>>`
    SELECT ((min(ctid)::text::point)[0])::int AS first, ((max(ctid)::text::point)[0])::int AS last
    FROM breach_exposures WHERE import_id = ${importId}::bigint`;
  return row?.first == null || row.last == null ? undefined : { fromPage: row.first, toPage: row.last + 1 };
}

export interface RangePrefixFill {
  /** Rows given their prefix. */
  updated: number;
  /** The first page not done yet, when the run stopped early; undefined when the range is done. */
  nextPage?: number;
}

/**
 * Fills email_sha1_prefix of the rows in pages [fromPage, toPage) that lack it, a batch of pages per
 * transaction (a TID range scan: each page read once, in table order). Idempotent and resumable:
 * only rows still NULL are read, so a run that stopped (a crash, `stopAfter`) is simply run again
 * (or continued from `nextPage`). Rows another run holds locked are skipped: that run fills them.
 */
export async function fillRangePrefixes(
  db: Db,
  { fromPage, toPage }: { fromPage: number; toPage: number },
  { batchPages = RANGE_PREFIX_BATCH_PAGES, stopAfter }: { batchPages?: number; stopAfter?: () => boolean } = {},
): Promise<RangePrefixFill> {
  let updated = 0;
  for (let page = fromPage; page < toPage; page += batchPages) {
    if (page > fromPage && stopAfter?.()) return { updated, nextPage: page };
    const end = Math.min(page + batchPages, toPage);
    updated += await db.$transaction(async (tx) => {
      const rows = await tx.$queryRaw<Array<{ ctid: string; email: string }>>`
        SELECT ctid::text, email FROM breach_exposures
        WHERE ctid >= ${`(${page},0)`}::tid AND ctid < ${`(${end},0)`}::tid AND email_sha1_prefix IS NULL
        FOR UPDATE SKIP LOCKED`;
      if (rows.length === 0) return 0;
      // By ctid: the rows are locked until the commit, so none has moved. The page range keeps the
      // plan to those pages (a join on ctid alone reads the whole table).
      return tx.$executeRaw`
        UPDATE breach_exposures e SET email_sha1_prefix = v.prefix
        FROM unnest(${rows.map((row) => row.ctid)}::tid[], ${rows.map((row) => emailSha1Prefix(row.email))}::int[]) AS v(row_id, prefix)
        WHERE e.ctid = v.row_id AND e.ctid >= ${`(${page},0)`}::tid AND e.ctid < ${`(${end},0)`}::tid`;
    });
  }
  return { updated };
}

/**
 * Runs one request: an import's pages, or a page range. A run that takes longer than RUN_MS
 * queues the rest as a job of its own (a page range) and ends, so no run outlives its lease.
 */
export async function indexRangePrefixes(db: Db, request: RangePrefixRequest, { runMs = RUN_MS } = {}): Promise<RangePrefixFill> {
  const pages = "importId" in request ? await pagesOfImport(db, request.importId) : request;
  if (!pages) return { updated: 0 };
  const deadline = Date.now() + runMs;
  const fill = await fillRangePrefixes(db, pages, { stopAfter: () => Date.now() >= deadline });
  if (fill.nextPage !== undefined) {
    await indexRangePrefixesJobType.enqueue(db, { fromPage: fill.nextPage, toPage: pages.toPage });
    await wakeJobWorkers();
  }
  return fill;
}

export const indexRangePrefixesJob = defineJob(indexRangePrefixesJobType, {
  async run(db, payload) {
    await indexRangePrefixes(db, payload);
  },
});
