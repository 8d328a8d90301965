import { applyDirectoryAddresses, type DirectoryCustomer } from "../customers/assets";
import type { Db, Queryable } from "../db/client";
import { customerDomain } from "../domains/domains";
import { verifyInTransaction } from "../domains/verify";
import { wakeJobWorkers } from "../jobs/wake";
import { log } from "../log";
import { isTenantRoutingDomain, monitoredAddressesOf, type KnownUser } from "./addresses";
import { DirectoryAccessError, DirectoryCursorExpiredError, type DirectoryProvider, type DirectoryUserChange } from "./provider";
import { providerFor, type ConnectionCredentials } from "./providers";

/** How long a run holds its connection without a sign of life (renewed at every page). */
export const RUN_LEASE_MS = 120_000;
/** Users whose addresses one transaction applies. */
export const APPLY_BATCH = 1000;
const TRANSACTION = { timeout: 120_000, maxWait: 30_000 };

/**
 * A run goes through these phases, each page of each one committed with the phase's place
 * (the connection's run_* columns), so a run that dies resumes where its last commit left it:
 * users (the user changes, and on a full round the sweep of users it did not see), members (with
 * a group), domains, apply (each changed user's addresses onto the monitored assets).
 */
type Phase = "users" | "members" | "domains" | "apply";

interface Run {
  connectionId: string;
  customerId: string;
  runId: string;
  phase: Phase;
  full: boolean;
  cursor: string | null;
  groupId: string | null;
  tenantId: string;
  credentials: ConnectionCredentials;
}

export type SyncOutcome =
  | { status: "ok"; added: number; removed: number; users: number }
  | { status: "failing"; reason: string }
  | { status: "skipped"; reason: "not-connected" | "running" | "superseded" };

/** The run's connection row moved on (reconnected or disconnected): this run stops. */
class RunSupersededError extends Error {}

export interface SyncOptions {
  /** The provider to read (default: the connection's, from its stored credentials). */
  provider?: DirectoryProvider;
  leaseMs?: number;
  /** Users per apply transaction (default APPLY_BATCH). */
  applyBatch?: number;
}

/**
 * One sync of a customer's directory (docs/directory.md), one at a time per connection: a run
 * claims the connection for `leaseMs`, renewed at every page, and one that finds it claimed
 * does nothing. A run that finds an unfinished one (its process died) resumes it. Access errors
 * leave the connection `failing` with their reason; other errors too, and are thrown (the job
 * retries). Nothing is added twice and no removal is lost: every page's changes and its place
 * commit together, and users stay marked changed until their addresses are applied.
 */
export async function syncDirectory(db: Db, connectionId: string, options: SyncOptions = {}): Promise<SyncOutcome> {
  const outcome = await syncOnce(db, connectionId, options);
  // Reconnected while this run read the old connection: the new connection's run follows at once
  // (its queued sync was this one).
  return outcome.status === "skipped" && outcome.reason === "superseded" ? syncOnce(db, connectionId, options) : outcome;
}

async function syncOnce(db: Db, connectionId: string, options: SyncOptions): Promise<SyncOutcome> {
  const leaseMs = options.leaseMs ?? RUN_LEASE_MS;
  const run = await claimRun(db, connectionId, leaseMs);
  if (!run) {
    const exists = await db.directoryConnection.count({ where: { id: connectionId } });
    return { status: "skipped", reason: exists ? "running" : "not-connected" };
  }
  const provider = options.provider ?? providerFor(run.credentials);
  try {
    let users = 0;
    if (run.phase === "users") users = await readUserChanges(db, run, provider, leaseMs);
    if (run.phase === "members") await readGroupMembers(db, run, provider, leaseMs);
    if (run.phase === "domains") await readDomains(db, run, provider, leaseMs);
    const applied = await applyChangedUsers(db, run, leaseMs, options.applyBatch ?? APPLY_BATCH);
    await db.$executeRaw`
      UPDATE directory_connections
      SET state = 'ok', last_sync_at = now(), last_error = NULL, run_id = NULL, run_phase = NULL, run_cursor = NULL,
          run_full = false, run_lease_until = NULL, updated_at = now()
      WHERE id = ${run.connectionId}::uuid AND run_id = ${run.runId}::uuid`;
    log.info("directory synced", { connectionId, customerId: run.customerId, users, ...applied });
    return { status: "ok", users, ...applied };
  } catch (error) {
    if (error instanceof RunSupersededError) return { status: "skipped", reason: "superseded" };
    const reason = error instanceof DirectoryAccessError ? error.message : `sync failed: ${(error as Error).message}`.slice(0, 500);
    await db.$executeRaw`
      UPDATE directory_connections SET state = 'failing', last_error = ${reason}, run_lease_until = NULL, updated_at = now()
      WHERE id = ${run.connectionId}::uuid AND run_id = ${run.runId}::uuid`;
    log.warn("directory sync failed", { connectionId, customerId: run.customerId, reason });
    if (error instanceof DirectoryAccessError) return { status: "failing", reason };
    throw error;
  }
}

/** Claims the connection: a new run, or the unfinished one a dead process left. */
async function claimRun(db: Db, connectionId: string, leaseMs: number): Promise<Run | undefined> {
  const rows = await db.$queryRaw<
    Array<{
      customerId: string;
      runId: string;
      phase: Phase;
      full: boolean;
      cursor: string | null;
      groupId: string | null;
      tenantId: string;
      clientId: string;
      provider: "microsoft365";
      clientSecretCiphertext: string;
    }>
  >`
    UPDATE directory_connections
    SET run_id = coalesce(run_id, gen_random_uuid()),
        run_phase = coalesce(run_phase, 'users'),
        run_full = CASE WHEN run_id IS NULL THEN delta_cursor IS NULL ELSE run_full END,
        run_cursor = CASE WHEN run_id IS NULL THEN delta_cursor ELSE run_cursor END,
        run_lease_until = now() + make_interval(secs => ${leaseMs / 1000}),
        state = 'syncing', updated_at = now()
    WHERE id = ${connectionId}::uuid AND (run_lease_until IS NULL OR run_lease_until < now())
    RETURNING customer_id::text AS "customerId", run_id::text AS "runId", run_phase AS phase, run_full AS "full",
              run_cursor AS cursor, group_id AS "groupId", tenant_id AS "tenantId", client_id AS "clientId",
              provider::text AS provider, client_secret_ciphertext AS "clientSecretCiphertext"`;
  const row = rows[0];
  if (!row) return undefined;
  return {
    connectionId,
    customerId: row.customerId,
    runId: row.runId,
    phase: row.phase,
    full: row.full,
    cursor: row.cursor,
    groupId: row.groupId,
    tenantId: row.tenantId,
    credentials: {
      provider: row.provider,
      tenantId: row.tenantId,
      clientId: row.clientId,
      clientSecretCiphertext: row.clientSecretCiphertext,
    },
  };
}

/** Moves the run's place on, renewing its lease, in the page's transaction; a superseded run stops here. */
async function advance(tx: Queryable, run: Run, next: { phase: Phase; cursor: string | null; full?: boolean }, leaseMs: number) {
  const updated = await tx.$executeRaw`
    UPDATE directory_connections
    SET run_phase = ${next.phase}, run_cursor = ${next.cursor}, run_full = ${next.full ?? run.full},
        run_lease_until = now() + make_interval(secs => ${leaseMs / 1000}), updated_at = now()
    WHERE id = ${run.connectionId}::uuid AND run_id = ${run.runId}::uuid`;
  if (updated === 0) throw new RunSupersededError();
  run.phase = next.phase;
  run.cursor = next.cursor;
  run.full = next.full ?? run.full;
}

async function readUserChanges(db: Db, run: Run, provider: DirectoryProvider, leaseMs: number): Promise<number> {
  let seen = 0;
  for (;;) {
    let page;
    try {
      page = await provider.userChanges(run.cursor ?? undefined);
    } catch (error) {
      if (!(error instanceof DirectoryCursorExpiredError) || !run.cursor) throw error;
      log.info("directory delta link expired: full sync", { connectionId: run.connectionId });
      await db.$transaction((tx) => advance(tx, run, { phase: "users", cursor: null, full: true }, leaseMs));
      continue;
    }
    seen += page.users.length;
    await db.$transaction(async (tx) => {
      await storeUserChanges(tx, run, page.users);
      if (page.next) return advance(tx, run, { phase: "users", cursor: page.next }, leaseMs);
      // A full round lists every user: the ones it did not list are gone.
      if (run.full) {
        await tx.$executeRaw`
          UPDATE directory_users SET deleted = true, dirty = true, updated_at = now()
          WHERE connection_id = ${run.connectionId}::uuid AND NOT deleted AND seen_run_id IS DISTINCT FROM ${run.runId}::uuid`;
      }
      await tx.$executeRaw`
        UPDATE directory_connections SET delta_cursor = ${page.delta ?? null} WHERE id = ${run.connectionId}::uuid`;
      await advance(tx, run, { phase: run.groupId ? "members" : "domains", cursor: null }, leaseMs);
    }, TRANSACTION);
    if (run.phase !== "users") return seen;
  }
}

interface StoredUser extends KnownUser {
  externalId: string;
  displayName: string | null;
}

/** Merges a page of changes into directory_users: a property a change leaves out keeps its value. */
async function storeUserChanges(tx: Queryable, run: Run, changes: readonly DirectoryUserChange[]): Promise<void> {
  if (changes.length === 0) return;
  const ids = [...new Set(changes.map((change) => change.id))];
  const stored = await tx.$queryRaw<StoredUser[]>`
    SELECT external_id AS "externalId", display_name AS "displayName", mail, proxy_addresses AS "proxyAddresses",
           enabled, guest, deleted, in_group AS "inGroup"
    FROM directory_users WHERE connection_id = ${run.connectionId}::uuid AND external_id = ANY(${ids}::text[])`;
  const users = new Map(stored.map((user) => [user.externalId, user]));
  for (const change of changes) {
    const known: StoredUser = users.get(change.id) ?? {
      externalId: change.id,
      displayName: null,
      mail: null,
      proxyAddresses: [],
      enabled: true,
      guest: false,
      deleted: false,
      inGroup: true,
    };
    if (change.removed) {
      users.set(change.id, { ...known, deleted: true });
      continue;
    }
    users.set(change.id, {
      ...known,
      deleted: false,
      displayName: change.displayName !== undefined ? change.displayName : known.displayName,
      mail: change.mail !== undefined ? change.mail : known.mail,
      proxyAddresses: change.proxyAddresses ?? known.proxyAddresses,
      enabled: change.accountEnabled !== undefined ? change.accountEnabled !== false : known.enabled,
      guest: change.userType !== undefined ? (change.userType ?? "").toLowerCase() === "guest" : known.guest,
    });
  }
  const rows = [...users.values()].map((user) => ({
    id: user.externalId,
    display_name: user.displayName,
    mail: user.mail,
    proxy_addresses: user.proxyAddresses,
    enabled: user.enabled,
    guest: user.guest,
    deleted: user.deleted,
  }));
  await tx.$executeRaw`
    INSERT INTO directory_users (connection_id, external_id, display_name, mail, proxy_addresses, enabled, guest, deleted,
                                 dirty, seen_run_id, updated_at)
    SELECT ${run.connectionId}::uuid, u.id, u.display_name, u.mail,
           ARRAY(SELECT jsonb_array_elements_text(u.proxy_addresses)), u.enabled, u.guest, u.deleted, true, ${run.runId}::uuid, now()
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
         AS u(id text, display_name text, mail text, proxy_addresses jsonb, enabled boolean, guest boolean, deleted boolean)
    ON CONFLICT (connection_id, external_id) DO UPDATE
    SET display_name = EXCLUDED.display_name, mail = EXCLUDED.mail, proxy_addresses = EXCLUDED.proxy_addresses,
        enabled = EXCLUDED.enabled, guest = EXCLUDED.guest, deleted = EXCLUDED.deleted, dirty = true,
        seen_run_id = EXCLUDED.seen_run_id, updated_at = now()`;
}

/** With a group: which users are its transitive members now. */
async function readGroupMembers(db: Db, run: Run, provider: DirectoryProvider, leaseMs: number): Promise<void> {
  const groupId = run.groupId!;
  for (;;) {
    const page = await provider.groupMembers(groupId, run.cursor ?? undefined);
    await db.$transaction(async (tx) => {
      if (page.userIds.length > 0) {
        await tx.$executeRaw`
          UPDATE directory_users SET member_run_id = ${run.runId}::uuid
          WHERE connection_id = ${run.connectionId}::uuid AND external_id = ANY(${page.userIds}::text[])`;
      }
      if (page.next) return advance(tx, run, { phase: "members", cursor: page.next }, leaseMs);
      await tx.$executeRaw`
        UPDATE directory_users SET in_group = (member_run_id IS NOT DISTINCT FROM ${run.runId}::uuid), dirty = true, updated_at = now()
        WHERE connection_id = ${run.connectionId}::uuid
          AND in_group IS DISTINCT FROM (member_run_id IS NOT DISTINCT FROM ${run.runId}::uuid)`;
      await advance(tx, run, { phase: "domains", cursor: null }, leaseMs);
    }, TRANSACTION);
    if (run.phase !== "members") return;
  }
}

/**
 * The tenant's verified domains: kept on the connection, and each one the customer monitors counts
 * as verified (method `directory`), revealing what was withheld at it as a DNS proof would.
 */
async function readDomains(db: Db, run: Run, provider: DirectoryProvider, leaseMs: number): Promise<void> {
  const verified = (await provider.domains())
    .filter((domain) => domain.verified && !domain.initial && !isTenantRoutingDomain(domain.name))
    .map((domain) => domain.name)
    .sort();
  let revealed = false;
  await db.$transaction(async (tx) => {
    await tx.$executeRaw`UPDATE directory_connections SET verified_domains = ${verified}::text[] WHERE id = ${run.connectionId}::uuid`;
    const monitored = await tx.$queryRaw<Array<{ value: string }>>`
      SELECT a.value FROM monitored_assets a
      LEFT JOIN customer_domains cd ON cd.customer_id = a.customer_id AND cd.domain = a.value
      WHERE a.customer_id = ${run.customerId}::uuid AND a.kind = 'domain' AND a.value = ANY(${verified}::text[])
        AND (cd.status IS NULL OR cd.status = 'unverified')
      ORDER BY a.value`;
    for (const { value } of monitored) {
      const domain = await customerDomain(tx, run.customerId, value);
      const by = `Microsoft 365 tenant ${run.tenantId}`;
      if (await verifyInTransaction(tx, domain.id, { method: "directory", by })) revealed = true;
    }
    await advance(tx, run, { phase: "apply", cursor: null }, leaseMs);
  }, TRANSACTION);
  if (revealed) await wakeJobWorkers();
}

/** Applies the changed users' addresses, a batch per transaction, until none is left changed. */
async function applyChangedUsers(db: Db, run: Run, leaseMs: number, batchSize: number): Promise<{ added: number; removed: number }> {
  let added = 0;
  let removed = 0;
  let scanRequested = false;
  for (;;) {
    const batch = await db.$transaction(async (tx) => {
      const [customer] = await tx.$queryRaw<DirectoryCustomer[]>`
        SELECT id::text, partner_id::text AS "partnerId", company_name AS "companyName", reference, status::text
        FROM customers WHERE id = ${run.customerId}::uuid FOR UPDATE`;
      if (!customer) throw new RunSupersededError();
      // The tenant's verified domains (read in the domains phase) prove its addresses there are its own.
      const [connection] = await tx.$queryRaw<Array<{ verifiedDomains: string[] }>>`
        SELECT verified_domains AS "verifiedDomains" FROM directory_connections WHERE id = ${run.connectionId}::uuid`;
      const users = await tx.$queryRaw<Array<StoredUser & { addresses: string[] }>>`
        SELECT external_id AS "externalId", mail, proxy_addresses AS "proxyAddresses", enabled, guest, deleted,
               in_group AS "inGroup", addresses
        FROM directory_users WHERE connection_id = ${run.connectionId}::uuid AND dirty
        ORDER BY external_id LIMIT ${batchSize}`;
      if (users.length === 0) return 0;
      const before = new Set<string>();
      const after = new Set<string>();
      const rows = users.map((user) => {
        const addresses = monitoredAddressesOf(user);
        for (const address of user.addresses) before.add(address);
        for (const address of addresses) after.add(address);
        return { id: user.externalId, addresses };
      });
      await tx.$executeRaw`
        UPDATE directory_users d
        SET addresses = ARRAY(SELECT jsonb_array_elements_text(u.addresses)), dirty = false, updated_at = now()
        FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS u(id text, addresses jsonb)
        WHERE d.connection_id = ${run.connectionId}::uuid AND d.external_id = u.id`;
      // An address another user of the directory still has stays monitored.
      const dropped = [...before].filter((address) => !after.has(address));
      const kept = dropped.length
        ? await tx.$queryRaw<Array<{ address: string }>>`
            SELECT DISTINCT a.address FROM directory_users d CROSS JOIN LATERAL unnest(d.addresses) AS a(address)
            WHERE d.connection_id = ${run.connectionId}::uuid AND d.addresses && ${dropped}::text[] AND a.address = ANY(${dropped}::text[])`
        : [];
      const keptSet = new Set(kept.map((row) => row.address));
      const change = await applyDirectoryAddresses(tx, customer, {
        activate: [...after],
        deactivate: dropped.filter((address) => !keptSet.has(address)),
        ownedDomains: connection?.verifiedDomains ?? [],
      });
      added += change.added.length;
      removed += change.removed.length;
      scanRequested ||= change.scanRequested;
      await advance(tx, run, { phase: "apply", cursor: null }, leaseMs);
      return users.length;
    }, TRANSACTION);
    if (batch < batchSize) break;
  }
  if (scanRequested) await wakeJobWorkers();
  return { added, removed };
}
