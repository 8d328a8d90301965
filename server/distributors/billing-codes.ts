import type { Db } from "../db/client";
import { Prisma } from "../db/client";
import { isUniqueViolation } from "../db/errors";
import { badRequest, conflict, notFound } from "../errors";

export async function createBillingCode(db: Db, input: { distributorId: string; code: string; price: number }): Promise<{ id: number }> {
  const code = input.code.trim();
  if (!code) throw badRequest("Validation failed: code: Code is required");
  if (!Number.isFinite(input.price) || input.price < 0) {
    throw badRequest("Validation failed: price: Price must be a number >= 0");
  }
  const distributor = await db.distributor.findUnique({ where: { id: input.distributorId }, select: { id: true } });
  if (!distributor) throw notFound("Distributor not found");
  try {
    return await db.billingCode.create({
      data: { distributorId: distributor.id, code, price: new Prisma.Decimal(input.price.toFixed(2)) },
      select: { id: true },
    });
  } catch (error) {
    if (isUniqueViolation(error, "billing_codes_distributor_id_code_key")) throw conflict(`Billing code ${code} already exists`);
    throw error;
  }
}

export interface BillingCodeRecord {
  id: number;
  code: string;
  price: number;
}

export interface BillingCodePage {
  data: BillingCodeRecord[];
  pagination: { total_count: number; has_next_page: boolean; page: number; per_page: number };
}

const BILLING_CODE_NOT_FOUND = "Billing code not found";
/** billing_codes.id is a PostgreSQL integer; a larger id cannot exist. */
const MAX_BILLING_CODE_ID = 2_147_483_647;
const billingCodeSelect = { id: true, code: true, price: true } as const;

function toBillingCodeRecord(row: { id: number; code: string; price: Prisma.Decimal }): BillingCodeRecord {
  return { id: row.id, code: row.code, price: row.price.toNumber() };
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
  const row =
    Number.isInteger(id) && id >= 1 && id <= MAX_BILLING_CODE_ID
      ? await db.billingCode.findFirst({ where: { id, distributorId }, select: billingCodeSelect })
      : null;
  if (!row) throw notFound(BILLING_CODE_NOT_FOUND);
  return toBillingCodeRecord(row);
}
