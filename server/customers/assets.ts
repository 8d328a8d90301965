import { requestCustomerScan } from "./scan-requests";
import type { Db, Queryable } from "../db/client";
import type { AssetKind } from "../db/generated/enums";
import { normalizeEmail } from "../email-address";
import { badRequest } from "../errors";
import { customerRef, recordEvent, type AssetRef } from "../events/outbox";
import { wakeJobWorkers } from "../jobs/wake";
import { recountCustomerFigures } from "./figures";
import { assetDomain, distinct, INVALID_DOMAIN, INVALID_EMAIL, normalizeDomain } from "./asset-values";
import { foundOrNotFound, lockOwnedCustomer, ownedCustomerWhere } from "./ownership";

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
        throw badRequest(`Validation failed: ${field}.${index}: ${kind === "domain" ? INVALID_DOMAIN : INVALID_EMAIL}`);
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
      select: { assets: { select: { kind: true, value: true } } },
    }),
  );
  return toAssetLists(customer.assets);
}

function assetsOf(tx: Queryable, customerId: string): Promise<AssetRow[]> {
  return tx.monitoredAsset.findMany({ where: { customerId }, select: { id: true, kind: true, value: true } });
}

export interface AssetsUpdate {
  /** The complete new list of monitored domains; omitted leaves the domains as they are. */
  domains?: string[];
  /** The complete new list of monitored e-mail addresses; omitted leaves them as they are. */
  emails?: string[];
}

/**
 * Replaces the customer's monitored domains and/or e-mail addresses (each list given is the
 * full new set). In one transaction: the rows change, one customer.asset.added event lists
 * every added asset and one customer.asset.removed event every removed one, and an active
 * customer gets a scan of what was added.
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
    const added = await insertAssets(tx, customer.id, toAdd);
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
    const changed = added.length > 0 || removed.length > 0;
    return { lists: toAssetLists(changed ? await assetsOf(tx, customer.id) : assets), scanRequested };
  });
  if (result.scanRequested) await wakeJobWorkers();
  return result.lists;
}
