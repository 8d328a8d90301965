import type { Db } from "../db/client";
import { listenNotifyOf, type ListenNotify } from "../db/listen-notify";
import { existingPerDatabase, perDatabase } from "../db/per-database";
import { log } from "../log";

/** NOTIFY channel on which a revoked key's id is announced to every process (payload: the key id). */
export const API_KEY_REVOKED_CHANNEL = "api_key_revoked";
/** A cached verification is re-read from the database after this long (and lastUsedAt written then). */
export const VERIFIED_KEY_TTL_MS = 30_000;
const MAX_ENTRIES = 10_000;
const CACHE_NAME = "exposure-monitor.auth.verified-key-cache";

export interface VerifiedKey {
  id: string;
  partnerId: string | null;
  distributorId: string | null;
  partnerDistributorId: string | null;
}

/**
 * Keys verified against the database, by the SHA-256 of the presented key, so a busy client's
 * requests skip the key lookup. A revocation evicts the key in this process at once and in every
 * other through NOTIFY; while that channel is down nothing is served from or added to the cache,
 * and an entry is dropped after VERIFIED_KEY_TTL_MS in any case (a key revoked by hand in SQL,
 * without the notification, stops working within that time). Failed verifications are not cached.
 */
export class VerifiedKeyCache {
  private readonly entries = new Map<string, { key: VerifiedKey; expiresAt: number }>();
  /** Bumped by every revocation and gap: a database read that started before it is not cached. */
  private generation = 0;
  private subscribed = false;

  constructor(
    private readonly listenNotify: ListenNotify,
    private readonly now: () => number = Date.now,
  ) {}

  /** Starts listening for revocations; until then (and after a gap until re-listening) nothing is cached. */
  async listen(): Promise<void> {
    await this.listenNotify.subscribe(API_KEY_REVOKED_CHANNEL, {
      onMessage: (keyId) => this.forget(keyId),
      onGap: () => {
        this.generation++;
        this.entries.clear();
        this.subscribed = this.listenNotify.listening();
      },
    });
    this.subscribed = true;
  }

  private usable(): boolean {
    return this.subscribed && this.listenNotify.listening();
  }

  get(keyHash: string): VerifiedKey | undefined {
    if (!this.usable()) return undefined;
    const entry = this.entries.get(keyHash);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(keyHash);
      return undefined;
    }
    return entry.key;
  }

  /** Taken before reading a key from the database; `remember` ignores the read if a revocation came in between. */
  readStarted(): number {
    return this.generation;
  }

  remember(keyHash: string, key: VerifiedKey, readStartedAt: number): void {
    if (!this.usable() || readStartedAt !== this.generation) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(keyHash, { key, expiresAt: this.now() + VERIFIED_KEY_TTL_MS });
  }

  forget(keyId: string): void {
    this.generation++;
    for (const [hash, entry] of this.entries) if (entry.key.id === keyId) this.entries.delete(hash);
  }
}

/** The database handle's cache, listening from its first use; undefined for a handle without LISTEN/NOTIFY. */
export function verifiedKeyCacheOf(db: Db): VerifiedKeyCache | undefined {
  const listenNotify = listenNotifyOf(db);
  if (!listenNotify) return undefined;
  return perDatabase(db, CACHE_NAME, () => {
    const cache = new VerifiedKeyCache(listenNotify);
    cache.listen().catch((error: unknown) =>
      log.warn("API key revocations cannot be received; keys are checked in the database on every request until they can", {
        error: error instanceof Error ? error.message : String(error),
      }),
    );
    return cache;
  });
}

/** Evicts a revoked key from this process's cache, if the process has one (announcing it to others is the revoker's NOTIFY). */
export function forgetVerifiedKey(db: Db, keyId: string): void {
  existingPerDatabase<VerifiedKeyCache>(db, CACHE_NAME)?.forget(keyId);
}
