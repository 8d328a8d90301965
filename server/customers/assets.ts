import { requestCustomerScan } from "./scan-requests";
import type { Db, Queryable } from "../db/client";
import type { AssetKind } from "../db/generated/enums";
import { normalizeEmail } from "../email-address";
import { badRequest } from "../errors";
import { customerRef, recordEvent, type AssetRef } from "../events/outbox";
import { wakeJobWorkers } from "../jobs/wake";
import { recountCustomerFigures } from "./figures";
import { refreshThreatScore } from "./threat-score";
import { assetDomain, distinct, INVALID_EMAIL, invalidDomainMessage, normalizeDomain } from "./asset-values";
import { foundOrNotFound, lockOwnedCustomer, ownedCustomerWhere } from "./ownership";
import { discloseListedAddresses, inListedOrder } from "./listed-disclosure";

export const ASSETS_UPDATE_EMPTY = "At least one of domains or emails must be provided";

export interface AssetLists {
  domains: string[];
  emails: string[];
}

export interface AssetRow {
  id: string;
  kind: AssetKind;
  value: string;
}

/**
 * The stored form of a list of domains or e-mail addresses: normalized (trimmed, lower-case,
 * IDN in ASCII) and deduplicated. An invalid entry fails as "Validation failed: <field>.<i>: ...".
 */
export function normalizeValues(kind: AssetKind, values: readonly string[], field: string): string[] {
  const normalize = kind === "domain" ? normalizeDomain : normalizeEmail;
  return distinct(
    values.map((raw, index) => {
      const value = normalize(raw);
      if (value === undefined) {
        throw badRequest(`Validation failed: ${field}.${index}: ${kind === "domain" ? invalidDomainMessage(raw) : INVALID_EMAIL}`);
      }
      return value;
    }),
  );
}

/**
 * Adds monitored assets given by the partner; returns the new rows (for the asset event). One a
 * scan discovered in the meantime is already there and is left as it is.
 */
async function insertAssets(
  tx: Queryable,
  customerId: string,
  assets: ReadonlyArray<{ kind: AssetKind; value: string }>,
): Promise<AssetRow[]> {
  if (assets.length === 0) return [];
  return tx.monitoredAsset.createManyAndReturn({
    data: assets.map(({ kind, value }) => ({ customerId, kind, value, domain: assetDomain(kind, value), source: "partner" as const })),
    select: { id: true, kind: true, value: true },
    skipDuplicates: true,
  });
}

export function toAssetRefs(rows: readonly AssetRow[]): AssetRef[] {
  return rows.map((row) => ({ uuid: row.id, type: row.kind, value: row.value }));
}

/** Splits asset rows into sorted domain and e-mail lists (the API's shape; [] when empty). */
export function toAssetLists(rows: ReadonlyArray<{ kind: AssetKind; value: string }>): AssetLists {
  const lists: AssetLists = { domains: [], emails: [] };
  for (const row of rows) (row.kind === "domain" ? lists.domains : lists.emails).push(row.value);
  lists.domains.sort();
  lists.emails.sort();
  return lists;
}

/** Every monitored domain and e-mail address of the partner's customer. */
export async function getCustomerAssets(db: Db, partnerId: string, customerId: string): Promise<AssetLists> {
  const customer = foundOrNotFound(
    await db.customer.findFirst({
      where: ownedCustomerWhere(partnerId, customerId),
      select: { assets: { where: { active: true }, select: { kind: true, value: true } } },
    }),
  );
  return toAssetLists(customer.assets);
}

/** The monitored assets the partner's lists manage: every active one but the directory's (docs/directory.md). */
function assetsOf(tx: Queryable, customerId: string): Promise<AssetRow[]> {
  return tx.monitoredAsset.findMany({
    where: { customerId, active: true, source: { not: "directory" } },
    select: { id: true, kind: true, value: true },
  });
}

function activeAssetsOf(tx: Queryable, customerId: string): Promise<AssetRow[]> {
  return tx.monitoredAsset.findMany({ where: { customerId, active: true }, select: { id: true, kind: true, value: true } });
}

/**
 * The addresses of the partner's list that the directory had and no longer monitors (a user who
 * left): the partner takes them over, active again, as its own.
 */
async function takeOverInactive(tx: Queryable, customerId: string, assets: ReadonlyArray<{ kind: AssetKind; value: string }>) {
  const emails = assets.filter((asset) => asset.kind === "email").map((asset) => asset.value);
  if (emails.length === 0) return [];
  return tx.$queryRaw<AssetRow[]>`
    UPDATE monitored_assets SET active = true, source = 'partner'
    WHERE customer_id = ${customerId}::uuid AND kind = 'email' AND NOT active AND value = ANY(${emails}::text[])
    RETURNING id::text, kind, value`;
}

export interface AssetsUpdate {
  /** The complete new list of monitored domains; omitted leaves the domains as they are. */
  domains?: string[];
  /** The complete new list of monitored e-mail addresses; omitted leaves them as they are. */
  emails?: string[];
}

/**
 * Replaces the customer's monitored domains and/or e-mail addresses (each list given is the
 * full new set; the addresses a connected directory brings are its own and stay: docs/directory.md). In one transaction: the rows change, one customer.asset.added event lists
 * every added asset and one customer.asset.removed event every removed one, an active customer
 * gets a scan of what was added, and the lookup budget decides on the new addresses
 * (listed-disclosure.ts).
 */
export async function updateCustomerAssets(db: Db, partnerId: string, customerId: string, update: AssetsUpdate): Promise<AssetLists> {
  if (update.domains === undefined && update.emails === undefined) throw badRequest(ASSETS_UPDATE_EMPTY);
  const wanted: Array<[AssetKind, string[] | undefined]> = [
    ["domain", update.domains && normalizeValues("domain", update.domains, "domains")],
    ["email", update.emails && normalizeValues("email", update.emails, "emails")],
  ];
  const result = await db.$transaction(async (tx) => {
    const customer = await lockOwnedCustomer(tx, partnerId, customerId);
    const assets = await assetsOf(tx, customer.id);
    const removed: AssetRow[] = [];
    const toAdd: Array<{ kind: AssetKind; value: string }> = [];
    for (const [kind, values] of wanted) {
      if (values === undefined) continue;
      const current = assets.filter((asset) => asset.kind === kind);
      const keep = new Set(values);
      const existing = new Set(current.map((asset) => asset.value));
      removed.push(...current.filter((asset) => !keep.has(asset.value)));
      toAdd.push(...values.filter((value) => !existing.has(value)).map((value) => ({ kind, value })));
    }
    if (removed.length > 0) await tx.monitoredAsset.deleteMany({ where: { id: { in: removed.map((asset) => asset.id) } } });
    const inserted = await insertAssets(tx, customer.id, toAdd);
    const added = [...(await takeOverInactive(tx, customer.id, toAdd)), ...inserted];
    if (added.length > 0 || removed.length > 0) await recountCustomerFigures(tx, [customer.id]);
    const data = { customer: customerRef(customer) };
    if (added.length > 0) {
      await recordEvent(tx, {
        type: "customer.asset.added",
        partnerId,
        customerId: customer.id,
        data: { ...data, assets: toAssetRefs(added) },
      });
    }
    if (removed.length > 0) {
      await recordEvent(tx, {
        type: "customer.asset.removed",
        partnerId,
        customerId: customer.id,
        data: { ...data, assets: toAssetRefs(removed) },
      });
    }
    const scanRequested = added.length > 0 && customer.status === "active";
    if (scanRequested) await requestCustomerScan(tx, customer.id, "assets");
    // Only new addresses: one the directory brought before and the partner takes over keeps its state.
    const newEmails = inserted.filter((asset) => asset.kind === "email");
    if (newEmails.length > 0) {
      const order = toAdd.map((asset) => asset.value);
      await discloseListedAddresses(tx, { partnerId, customerId: customer.id, addresses: inListedOrder(newEmails, order) });
    }
    return { lists: toAssetLists(await activeAssetsOf(tx, customer.id)), scanRequested };
  });
  if (result.scanRequested) await wakeJobWorkers();
  return result.lists;
}

export interface DirectoryCustomer {
  id: string;
  partnerId: string;
  companyName: string;
  reference: string;
  status: string;
}

export interface DirectoryAddressChange {
  /** Addresses some monitored user of the directory has. */
  activate: readonly string[];
  /** Addresses no monitored user of the directory has any more. */
  deactivate: readonly string[];
  /** The directory's verified domains: its addresses there need no lookup budget (listed-disclosure.ts). */
  ownedDomains: readonly string[];
}

/**
 * A directory sync's change of the customer's mailboxes, in the caller's transaction, which holds
 * the customer's row lock. An address to activate becomes a monitored asset with the source
 * `directory` (new, an inactive one of the directory's made active again, or a discovered one
 * taken over); one to deactivate, if it is the directory's, becomes inactive (its history stays).
 * The partner's own addresses are left as they are. One customer.asset.added and one
 * customer.asset.removed event; an active customer gets a scan of what was added (wake the
 * workers after the commit); new addresses outside the directory's verified domains go through the
 * lookup budget as the partner's do (listed-disclosure.ts). Returns what changed.
 */
export async function applyDirectoryAddresses(
  tx: Queryable,
  customer: DirectoryCustomer,
  change: DirectoryAddressChange,
): Promise<{ added: AssetRow[]; removed: AssetRow[]; scanRequested: boolean }> {
  const activate = [...new Set(change.activate)].sort();
  const deactivate = [...new Set(change.deactivate)].filter((value) => !activate.includes(value)).sort();
  const existing = activate.length
    ? await tx.monitoredAsset.findMany({
        where: { customerId: customer.id, kind: "email", value: { in: activate } },
        select: { id: true, value: true, source: true, active: true },
      })
    : [];
  const byValue = new Map(existing.map((row) => [row.value, row]));
  const reactivated = existing.filter((row) => row.source === "directory" && !row.active).map((row) => row.id);
  const discovered = existing.filter((row) => row.source === "discovered").map((row) => row.id);
  const added: AssetRow[] = [];
  if (reactivated.length > 0 || discovered.length > 0) {
    const rows = await tx.$queryRaw<AssetRow[]>`
      UPDATE monitored_assets SET active = true, source = 'directory'
      WHERE id = ANY(${[...reactivated, ...discovered]}::uuid[])
      RETURNING id::text, kind, value`;
    const announced = new Set(reactivated);
    added.push(...rows.filter((row) => announced.has(row.id)));
  }
  const missing = activate.filter((value) => !byValue.has(value));
  const inserted = missing.length
    ? await tx.$queryRaw<AssetRow[]>`
        INSERT INTO monitored_assets (customer_id, kind, value, domain, source)
        SELECT ${customer.id}::uuid, 'email', v.value, substr(v.value, strpos(v.value, '@') + 1), 'directory'
        FROM unnest(${missing}::text[]) AS v(value)
        ON CONFLICT (customer_id, kind, value) DO NOTHING
        RETURNING id::text, kind, value`
    : [];
  added.push(...inserted);
  const removed = deactivate.length
    ? await tx.$queryRaw<AssetRow[]>`
        UPDATE monitored_assets SET active = false
        WHERE customer_id = ${customer.id}::uuid AND kind = 'email' AND source = 'directory' AND active
          AND value = ANY(${deactivate}::text[])
        RETURNING id::text, kind, value`
    : [];
  const data = { customer: customerRef(customer) };
  const sorted = (rows: AssetRow[]) => toAssetRefs([...rows].sort((a, b) => (a.value < b.value ? -1 : 1)));
  if (added.length > 0) {
    await recordEvent(tx, {
      type: "customer.asset.added",
      partnerId: customer.partnerId,
      customerId: customer.id,
      data: { ...data, assets: sorted(added) },
    });
  }
  if (removed.length > 0) {
    await recordEvent(tx, {
      type: "customer.asset.removed",
      partnerId: customer.partnerId,
      customerId: customer.id,
      data: { ...data, assets: sorted(removed) },
    });
    await refreshThreatScore(tx, customer.id);
  }
  if (added.length > 0 || removed.length > 0) await recountCustomerFigures(tx, [customer.id]);
  const scanRequested = added.length > 0 && customer.status === "active";
  if (scanRequested) await requestCustomerScan(tx, customer.id, "directory");
  if (inserted.length > 0) {
    await discloseListedAddresses(tx, {
      partnerId: customer.partnerId,
      customerId: customer.id,
      addresses: inListedOrder(inserted, missing),
      ownedDomains: change.ownedDomains,
    });
  }
  return { added, removed, scanRequested };
}
