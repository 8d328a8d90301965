import type { Db, Queryable } from "../db/client";
import { Prisma } from "../db/client";
import { isUniqueViolation } from "../db/errors";
import { badRequest, conflict, notFound } from "../errors";

/**
 * A distributor's billing codes (docs/distributors.md, "Billing codes"): a code, a price per
 * active customer and month, and its currency. A code can be edited; once a partner uses it, it
 * cannot be deleted, only retired: a retired code stays with the partners that have it (and in
 * billing) but cannot be given to a partner again. A partner's billing codes must be codes of
 * its distributor (checkPartnerBillingCodes).
 */

export const DEFAULT_BILLING_CURRENCY = "EUR";
export const BILLING_CODE_NOT_FOUND = "Billing code not found";
/** billing_codes.id is a PostgreSQL integer; a larger id cannot exist. */
const MAX_BILLING_CODE_ID = 2_147_483_647;
const CURRENCY_CODES = new Set(Intl.supportedValuesOf("currency"));
const billingCodeSelect = { id: true, code: true, price: true, currency: true, retiredAt: true } as const;

export interface BillingCodeRecord {
  id: number;
  code: string;
  price: number;
  /** ISO 4217 */
  currency: string;
  retired: boolean;
}

export interface BillingCodePage {
  data: BillingCodeRecord[];
  pagination: { total_count: number; has_next_page: boolean; page: number; per_page: number };
}

function toBillingCodeRecord(row: {
  id: number;
  code: string;
  price: Prisma.Decimal;
  currency: string;
  retiredAt: Date | null;
}): BillingCodeRecord {
  return { id: row.id, code: row.code, price: row.price.toNumber(), currency: row.currency, retired: row.retiredAt !== null };
}

function checkedFields(input: { code?: string; price?: number; currency?: string }) {
  const code = input.code?.trim();
  if (code === "") throw badRequest("Validation failed: code: Code is required");
  if (input.price !== undefined && (!Number.isFinite(input.price) || input.price < 0)) {
    throw badRequest("Validation failed: price: Price must be a number >= 0");
  }
  const currency = input.currency?.trim().toUpperCase();
  if (currency !== undefined && !CURRENCY_CODES.has(currency)) {
    throw badRequest("Validation failed: currency: Currency must be an ISO 4217 code such as EUR");
  }
  return {
    ...(code !== undefined ? { code } : {}),
    ...(input.price !== undefined ? { price: new Prisma.Decimal(input.price.toFixed(2)) } : {}),
    ...(currency !== undefined ? { currency } : {}),
  };
}

function duplicateCode(error: unknown, code: string | undefined): never {
  if (code && isUniqueViolation(error, "billing_codes_distributor_id_code_key")) throw conflict(`Billing code ${code} already exists`);
  throw error;
}

export async function createBillingCode(
  db: Db,
  input: { distributorId: string; code: string; price: number; currency?: string },
): Promise<{ id: number }> {
  const fields = checkedFields({ ...input, currency: input.currency ?? DEFAULT_BILLING_CURRENCY });
  const distributor = await db.distributor.findUnique({ where: { id: input.distributorId }, select: { id: true } });
  if (!distributor) throw notFound("Distributor not found");
  try {
    return await db.billingCode.create({
      data: { distributorId: distributor.id, code: fields.code!, price: fields.price!, currency: fields.currency! },
      select: { id: true },
    });
  } catch (error) {
    duplicateCode(error, fields.code);
  }
}

/**
 * Changes a code's text, price or currency. A new text is carried over to the partners that use
 * the code, in the same transaction, so they keep their price.
 */
export async function updateBillingCode(
  db: Db,
  distributorId: string,
  id: number,
  changes: { code?: string; price?: number; currency?: string },
): Promise<BillingCodeRecord> {
  const fields = checkedFields(changes);
  try {
    return await db.$transaction(async (tx) => {
      const current = await ownCode(tx, distributorId, id);
      if (fields.code !== undefined && fields.code !== current.code) {
        for (const column of ["basicBillingCode", "plusBillingCode", "proBillingCode"] as const) {
          await tx.partner.updateMany({ where: { distributorId, [column]: current.code }, data: { [column]: fields.code } });
        }
      }
      return toBillingCodeRecord(await tx.billingCode.update({ where: { id }, data: fields, select: billingCodeSelect }));
    });
  } catch (error) {
    duplicateCode(error, fields.code);
  }
}

/** Retires a code (no partner can be given it again) or brings it back. */
export async function setBillingCodeRetired(db: Db, distributorId: string, id: number, retired: boolean): Promise<BillingCodeRecord> {
  await ownCode(db, distributorId, id);
  return toBillingCodeRecord(
    await db.billingCode.update({ where: { id }, data: { retiredAt: retired ? new Date() : null }, select: billingCodeSelect }),
  );
}

/** Deletes a code no partner uses; a code in use can only be retired (409). */
export async function deleteBillingCode(db: Db, distributorId: string, id: number): Promise<void> {
  await db.$transaction(async (tx) => {
    const current = await ownCode(tx, distributorId, id);
    const users = await partnersUsing(tx, distributorId, current.code);
    if (users > 0) {
      throw conflict(`Billing code ${current.code} is used by ${users} partner${users === 1 ? "" : "s"}: retire it instead of deleting it`);
    }
    await tx.billingCode.delete({ where: { id } });
  });
}

function partnersUsing(db: Queryable, distributorId: string, code: string): Promise<number> {
  return db.partner.count({
    where: { distributorId, OR: [{ basicBillingCode: code }, { plusBillingCode: code }, { proBillingCode: code }] },
  });
}

async function ownCode(db: Queryable, distributorId: string, id: number) {
  const row =
    Number.isInteger(id) && id >= 1 && id <= MAX_BILLING_CODE_ID
      ? await db.billingCode.findFirst({ where: { id, distributorId }, select: billingCodeSelect })
      : null;
  if (!row) throw notFound(BILLING_CODE_NOT_FOUND);
  return row;
}

/** The partner fields that name a billing code. */
export const PARTNER_BILLING_CODE_FIELDS = ["basic_billing_code", "plus_billing_code", "pro_billing_code"] as const;
type PartnerBillingCodes = Partial<Record<(typeof PARTNER_BILLING_CODE_FIELDS)[number], string | null>>;

/**
 * Refuses a partner's billing code that is not one of the distributor's codes (400
 * `Validation failed: <field>: Unknown billing code <code>`), or a retired one the partner does
 * not already have (`... is retired`). `current`: the partner's codes before the change.
 */
export async function checkPartnerBillingCodes(
  db: Queryable,
  distributorId: string,
  codes: PartnerBillingCodes,
  current: PartnerBillingCodes = {},
): Promise<void> {
  const wanted = PARTNER_BILLING_CODE_FIELDS.flatMap((field) => {
    const code = codes[field];
    return typeof code === "string" && code !== current[field] ? [{ field, code }] : [];
  });
  if (wanted.length === 0) return;
  const known = await db.billingCode.findMany({
    where: { distributorId, code: { in: wanted.map(({ code }) => code) } },
    select: { code: true, retiredAt: true },
  });
  for (const { field, code } of wanted) {
    const row = known.find((entry) => entry.code === code);
    if (!row) throw badRequest(`Validation failed: ${field}: Unknown billing code ${code}`);
    if (row.retiredAt) throw badRequest(`Validation failed: ${field}: Billing code ${code} is retired`);
  }
}

/** One page of the distributor's billing codes, in id order. */
export async function listBillingCodes(
  db: Db,
  distributorId: string,
  { page, perPage }: { page: number; perPage: number },
): Promise<BillingCodePage> {
  const where = { distributorId };
  const [totalCount, rows] = await Promise.all([
    db.billingCode.count({ where }),
    db.billingCode.findMany({ where, orderBy: { id: "asc" }, skip: (page - 1) * perPage, take: perPage, select: billingCodeSelect }),
  ]);
  return {
    data: rows.map(toBillingCodeRecord),
    pagination: { total_count: totalCount, has_next_page: page * perPage < totalCount, page, per_page: perPage },
  };
}

/** One of the distributor's billing codes; another distributor's code is not found. */
export async function getBillingCode(db: Db, distributorId: string, id: number): Promise<BillingCodeRecord> {
  return toBillingCodeRecord(await ownCode(db, distributorId, id));
}
