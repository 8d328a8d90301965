import { encryptSecret } from "../app-key";
import { foundOrNotFound, lockOwnedCustomer, ownedCustomerWhere } from "../customers/ownership";
import type { Db, Queryable } from "../db/client";
import type { DirectoryState } from "../db/generated/enums";
import { notFound } from "../errors";
import { wakeJobWorkers } from "../jobs/wake";
import { requestDirectorySyncs } from "./jobs";
import type { DirectoryProviderName } from "./provider";

export const DIRECTORY_NOT_CONNECTED = "Directory not connected";

export interface DirectoryConnectionInput {
  provider: DirectoryProviderName;
  tenantId: string;
  clientId: string;
  clientSecret: string;
  groupId?: string | null;
}

/** A connection as the API shows it: never its secret. */
export interface DirectoryView {
  provider: DirectoryProviderName;
  tenantId: string;
  clientId: string;
  groupId: string | null;
  state: DirectoryState;
  lastSyncAt: string | null;
  lastError: string | null;
  /** Users whose mailboxes are monitored: enabled members (in the group, with one). */
  activeUsers: number;
  /** Members known to the sync whose mailboxes are not monitored: disabled, deleted, or outside the group. */
  inactiveUsers: number;
  /** Monitored addresses that come from the directory. */
  mailboxCount: number;
  verifiedDomains: string[];
}

/**
 * Connects the partner's customer to its directory, or replaces the connection, and queues its
 * first sync at once. A different tenant or group starts over with a full sync (what the old one
 * brought and the new one does not have stops being monitored); a new secret alone keeps the
 * place. The secret is stored encrypted with the app key.
 */
export async function connectDirectory(
  db: Db,
  partnerId: string,
  customerId: string,
  input: DirectoryConnectionInput,
): Promise<DirectoryView> {
  const groupId = input.groupId ?? null;
  const connectionId = await db.$transaction(async (tx) => {
    const customer = await lockOwnedCustomer(tx, partnerId, customerId);
    const existing = await tx.directoryConnection.findUnique({ where: { customerId: customer.id } });
    const secret = encryptSecret(input.clientSecret);
    const fields = {
      provider: input.provider,
      tenantId: input.tenantId,
      clientId: input.clientId,
      clientSecretCiphertext: secret,
      groupId,
    };
    if (!existing) {
      const created = await tx.directoryConnection.create({ data: { customerId: customer.id, ...fields }, select: { id: true } });
      await requestDirectorySyncs(tx, [created.id]);
      return created.id;
    }
    const startOver = existing.tenantId !== input.tenantId || existing.groupId !== groupId || existing.provider !== input.provider;
    await tx.directoryConnection.update({
      where: { id: existing.id },
      data: {
        ...fields,
        state: "syncing",
        lastError: null,
        // A new run from the start, a running one superseded (it stops at its next page).
        ...(startOver ? { deltaCursor: null, runId: null, runPhase: null, runCursor: null, runFull: false, runLeaseUntil: null } : {}),
      },
    });
    if (startOver && groupId === null) {
      await tx.directoryUser.updateMany({ where: { connectionId: existing.id, inGroup: false }, data: { inGroup: true, dirty: true } });
    }
    await requestDirectorySyncs(tx, [existing.id]);
    return existing.id;
  });
  await wakeJobWorkers();
  return directoryView(db, connectionId);
}

async function ownedConnectionId(db: Queryable, partnerId: string, customerId: string): Promise<string> {
  const customer = foundOrNotFound(
    await db.customer.findFirst({ where: ownedCustomerWhere(partnerId, customerId), select: { directory: { select: { id: true } } } }),
  );
  if (!customer.directory) throw notFound(DIRECTORY_NOT_CONNECTED);
  return customer.directory.id;
}

/** GET .../directory: the connection, its state and counts. */
export async function getDirectory(db: Db, partnerId: string, customerId: string): Promise<DirectoryView> {
  return directoryView(db, await ownedConnectionId(db, partnerId, customerId));
}

/** POST .../directory/sync: a sync now (one already queued is that one). */
export async function requestDirectorySync(db: Db, partnerId: string, customerId: string): Promise<void> {
  const connectionId = await ownedConnectionId(db, partnerId, customerId);
  await requestDirectorySyncs(db, [connectionId]);
  await wakeJobWorkers();
}

/**
 * DELETE .../directory: the sync stops. The addresses it brought stay monitored, now as the
 * partner's own (PATCH .../assets removes them); its record of the directory's users is deleted.
 */
export async function disconnectDirectory(db: Db, partnerId: string, customerId: string): Promise<void> {
  await db.$transaction(async (tx) => {
    const customer = await lockOwnedCustomer(tx, partnerId, customerId);
    const connection = await tx.directoryConnection.findUnique({ where: { customerId: customer.id }, select: { id: true } });
    if (!connection) throw notFound(DIRECTORY_NOT_CONNECTED);
    await tx.monitoredAsset.updateMany({
      where: { customerId: customer.id, source: "directory", active: true },
      data: { source: "partner" },
    });
    await tx.directoryConnection.delete({ where: { id: connection.id } });
  });
}

/** The connection's view (the admin UI shows the same). */
export async function directoryView(db: Queryable, connectionId: string): Promise<DirectoryView> {
  const [row] = await db.$queryRaw<Array<Omit<DirectoryView, "lastSyncAt"> & { lastSyncAt: Date | null }>>`
    SELECT dc.provider::text AS provider, dc.tenant_id AS "tenantId", dc.client_id AS "clientId", dc.group_id AS "groupId",
           dc.state::text AS state, dc.last_sync_at AS "lastSyncAt", dc.last_error AS "lastError",
           (SELECT count(*) FROM directory_users u WHERE u.connection_id = dc.id AND NOT u.guest
              AND NOT u.deleted AND u.enabled AND u.in_group)::int AS "activeUsers",
           (SELECT count(*) FROM directory_users u WHERE u.connection_id = dc.id AND NOT u.guest
              AND (u.deleted OR NOT u.enabled OR NOT u.in_group))::int AS "inactiveUsers",
           (SELECT count(*) FROM monitored_assets a WHERE a.customer_id = dc.customer_id AND a.kind = 'email'
              AND a.source = 'directory' AND a.active)::int AS "mailboxCount",
           dc.verified_domains AS "verifiedDomains"
    FROM directory_connections dc WHERE dc.id = ${connectionId}::uuid`;
  if (!row) throw notFound(DIRECTORY_NOT_CONNECTED);
  return { ...row, lastSyncAt: row.lastSyncAt?.toISOString() ?? null };
}
