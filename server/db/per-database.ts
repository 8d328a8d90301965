import type { Db } from "./client";

/**
 * State kept on a database handle under `Symbol.for(name)`, not in module variables: Next.js may
 * load a module once per server bundle, while the handle is one per process, so every bundle
 * finds the same state through it.
 */
function slots(db: Db): Record<symbol, unknown> {
  return db as unknown as Record<symbol, unknown>;
}

/** The handle's state of that name, created on first use. */
export function perDatabase<T>(db: Db, name: string, create: () => T): T {
  return (slots(db)[Symbol.for(name)] ??= create()) as T;
}

/** The handle's state of that name if it was created, without creating it. */
export function existingPerDatabase<T>(db: Db, name: string): T | undefined {
  return slots(db)[Symbol.for(name)] as T | undefined;
}

export function setPerDatabase<T>(db: Db, name: string, value: T): void {
  slots(db)[Symbol.for(name)] = value;
}

/**
 * State set on exactly this handle, read back only from it: a transaction client can reach its
 * handle's slots through a proxy, and must not be taken for the handle (direct-read, bulk-write).
 */
export function setOwnPerDatabase<T>(db: Db, name: string, value: T): void {
  setPerDatabase(db, name, { owner: db, value });
}

export function ownPerDatabase<T>(db: Db, name: string): T | undefined {
  const registration = existingPerDatabase<{ owner: Db; value: T }>(db, name);
  return registration?.owner === db ? registration.value : undefined;
}
