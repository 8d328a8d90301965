import { createHash } from "node:crypto";
import { derivedAppKey } from "../../app-key";
import type { Db, Queryable } from "../../db/client";
import { readRows } from "../../db/direct-read";
import { perDatabase } from "../../db/per-database";
import { BREACH_CHECK_POLICY, countLookup, type Limited, refuseOverLimit } from "./lookups";

/**
 * breach/range (docs/breaches.md, "Look up addresses by hash prefix"): the addresses whose SHA-1
 * starts with the 6 hex characters given, as HIBP's range APIs answer, so a caller never sends the
 * address. Every answer has exactly RANGE_ENTRIES entries, real ones padded with decoys and sorted
 * by suffix, so a hit and a miss (and a busy and a quiet prefix) look alike.
 */
export const RANGE_ENTRIES = 64;
export const RANGE_PREFIX_PATTERN = /^[0-9a-fA-F]{6}$/;

/** The 34 hex characters of a SHA-1 after the prefix. */
const SUFFIX_BYTES = 17;
/** Points of each breach on the decoys' ring: enough that each breach holds a similar share of it. */
const RING_POINTS_PER_BREACH = 16;
/** Per decoy candidate: its suffix, its place on the ring (48 bits), how many names (1 to 3). */
const CANDIDATE_BYTES = SUFFIX_BYTES + 6 + 1;
/** Candidates drawn per prefix: twice the entries, so candidates that meet a real suffix can be passed over. */
const DECOY_CANDIDATES = 2 * RANGE_ENTRIES;

export interface RangeEntry {
  suffix: string;
  breachNames: string[];
}

/** The breaches a range answer may name: never a sensitive or stealer-log one (nor a retired one, as every lookup). */
const LISTED_BREACH = "NOT b.is_sensitive AND NOT b.is_stealer_log AND NOT b.is_retired";

/**
 * breach/range: the entries of the prefix (6 hex characters, either case). Counts against the
 * API key's breach/check budget first; the lookup runs beside the count, as breach/check's does.
 */
export async function rangeLookup(
  db: Db,
  caller: { apiKeyId: string },
  prefix: string,
  { limitPerMinute }: { limitPerMinute: number },
): Promise<Limited<RangeEntry[]>> {
  const upper = prefix.toUpperCase();
  const [rateLimit, rows, ring] = await Promise.all([
    countLookup(db, BREACH_CHECK_POLICY, caller.apiKeyId, limitPerMinute),
    listedExposuresWithPrefix(db, Number.parseInt(upper, 16)),
    decoyRing(db),
  ]);
  refuseOverLimit(BREACH_CHECK_POLICY, rateLimit);
  return { result: rangeEntries(upper, rows, ring), rateLimit };
}

/** The answer for a prefix from its indexed rows: real entries (at most RANGE_ENTRIES, the lowest suffixes), decoys for the rest, by suffix. */
export function rangeEntries(prefix: string, rows: ReadonlyArray<{ email: string; name: string }>, ring: DecoyRing): RangeEntry[] {
  const byEmail = new Map<string, Set<string>>();
  for (const { email, name } of rows) {
    const names = byEmail.get(email) ?? new Set<string>();
    byEmail.set(email, names.add(name));
  }
  const real: RangeEntry[] = [];
  for (const [email, names] of byEmail) {
    const hash = createHash("sha1").update(email).digest("hex").toUpperCase();
    if (hash.startsWith(prefix)) real.push({ suffix: hash.slice(prefix.length), breachNames: [...names].sort(byCodeUnit) });
  }
  real.sort(bySuffix);
  const listed = real.slice(0, RANGE_ENTRIES);
  return [...listed, ...rangeDecoys(prefix, RANGE_ENTRIES - listed.length, listed, ring)].sort(bySuffix);
}

/** breach/check's hot-path lane (direct driver reads): a lookup with the same goal, p99 < 10 ms at 500/s. */
async function listedExposuresWithPrefix(db: Queryable, prefix: number): Promise<Array<{ email: string; name: string }>> {
  return readRows(
    db,
    `SELECT e.email, b.name FROM breach_exposures e JOIN breaches b ON b.id = e.breach_id
     WHERE e.email_sha1_prefix = $1 AND ${LISTED_BREACH}`,
    [prefix],
    { preparedAs: "range-exposures" },
  );
}

/**
 * Decoys for a prefix: suffixes from SHAKE256 keyed by a key of the app secret over the prefix, so
 * the same prefix gets the same decoys every time (repeating a call tells nothing) and nobody
 * without the key can tell them from real ones. Each decoy names 1 to 3 breaches from the ring.
 */
export function rangeDecoys(prefix: string, count: number, real: readonly RangeEntry[], ring: DecoyRing): RangeEntry[] {
  if (count <= 0) return [];
  const stream = createHash("shake256", { outputLength: DECOY_CANDIDATES * CANDIDATE_BYTES })
    .update(derivedAppKey("breach-range-decoys"))
    .update(`breach-range:${prefix}`)
    .digest();
  const taken = new Set(real.map((entry) => entry.suffix));
  const found: RangeEntry[] = [];
  for (let at = 0; at < stream.length && found.length < count; at += CANDIDATE_BYTES) {
    const suffix = stream
      .subarray(at, at + SUFFIX_BYTES)
      .toString("hex")
      .toUpperCase();
    if (taken.has(suffix)) continue;
    taken.add(suffix);
    const names = 1 + (stream[at + SUFFIX_BYTES + 6]! % 3);
    found.push({ suffix, breachNames: ring.namesAt(stream.readUIntBE(at + SUFFIX_BYTES, 6), names) });
  }
  return found;
}

/**
 * A consistent-hashing ring over the names of the breaches a range answer may list: a decoy takes
 * the names at and after its place, clockwise. Adding or retiring a breach changes only the decoys
 * whose places fall on that breach's arcs, so one catalogue change does not redraw every answer.
 */
export class DecoyRing {
  private readonly points: Array<{ at: number; name: string }>;

  constructor(names: readonly string[]) {
    this.points = names
      .flatMap((name) =>
        Array.from({ length: RING_POINTS_PER_BREACH }, (_, i) => ({
          at: createHash("sha256").update(`${name}\u0000${i}`).digest().readUIntBE(0, 6),
          name,
        })),
      )
      .sort((a, b) => a.at - b.at || byCodeUnit(a.name, b.name));
  }

  /** Up to `count` distinct names, from the first point at or after `at` (48 bits) clockwise, sorted. */
  namesAt(at: number, count: number): string[] {
    const names = new Set<string>();
    if (this.points.length === 0) return [];
    let low = 0;
    let high = this.points.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.points[middle]!.at < at) low = middle + 1;
      else high = middle;
    }
    for (let step = 0; step < this.points.length && names.size < count; step++) {
      names.add(this.points[(low + step) % this.points.length]!.name);
    }
    return [...names].sort(byCodeUnit);
  }
}

/**
 * How long the ring is used before the catalogue is asked whether it changed. The ring only names
 * decoys' breaches (real entries are filtered when read), and asking on every call cost breach/range
 * a query per lookup on its hot path; a catalogue change so reaches the decoys within this time.
 */
const RING_RECHECK_MS = 10_000;

/** The database's ring in this process, rebuilt when the listed breaches change (a digest of their names says so, in one row). */
interface RingCache {
  cached?: { digest: string; ring: DecoyRing; checkedAt: number };
  check?: Promise<DecoyRing>;
}

function decoyRing(db: Db): Promise<DecoyRing> | DecoyRing {
  const cache = perDatabase<RingCache>(db, "exposure-monitor.breach-range.ring", () => ({}));
  if (cache.cached && Date.now() - cache.cached.checkedAt < RING_RECHECK_MS) return cache.cached.ring;
  cache.check ??= currentDecoyRing(db, cache).finally(() => (cache.check = undefined));
  return cache.check;
}

async function currentDecoyRing(db: Queryable, cache: RingCache): Promise<DecoyRing> {
  const digestOf = `coalesce(md5(string_agg(b.name, E'\\n' ORDER BY b.name COLLATE "C")), '') AS digest`;
  const [current] = await readRows<{ digest: string }>(db, `SELECT ${digestOf} FROM breaches b WHERE ${LISTED_BREACH}`, [], {
    preparedAs: "range-catalogue-digest",
  });
  if (cache.cached && cache.cached.digest === current?.digest) {
    cache.cached.checkedAt = Date.now();
    return cache.cached.ring;
  }
  // The names and their digest in one statement, so the cached pair always belongs together.
  const [listed] = await db.$queryRawUnsafe<Array<{ names: string[] | null; digest: string }>>(
    `SELECT array_agg(b.name) AS names, ${digestOf} FROM breaches b WHERE ${LISTED_BREACH}`,
  );
  const ring = new DecoyRing(listed?.names ?? []);
  cache.cached = { digest: listed?.digest ?? "", ring, checkedAt: Date.now() };
  return ring;
}

function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function bySuffix(a: RangeEntry, b: RangeEntry): number {
  return byCodeUnit(a.suffix, b.suffix);
}
