import { z } from "zod";
import type { Db, Prisma } from "../db/client";
import { badRequest, notFound } from "../errors";
import { isUuid } from "../uuid";
import { checkPartnerBillingCodes } from "./billing-codes";

export const PARTNER_NOT_FOUND = "Partner not found";
export const INVALID_PARTNER_ID = "Partner ID must be a valid UUID";
export const PARTNER_UPDATE_EMPTY = "At least one partner field must be provided";

/** A partner as the distributor API shows it (docs/distributors.md): snake_case, no envelope. */
export const partnerRecordSchema = z
  .object({
    uuid: z.string().meta({ format: "uuid" }),
    name: z.string(),
    contact_email: z.string().nullable(),
    product_type: z.string().nullable(),
    reply_to_email: z.string().nullable(),
    account_reference: z.string().nullable(),
    monthly_churn_limit: z.number().int().nullable(),
    basic_billing_code: z.string().nullable(),
    plus_billing_code: z.string().nullable(),
    pro_billing_code: z.string().nullable(),
    send_customer_welcome_emails: z.boolean(),
    send_transactional_emails: z.boolean(),
  })
  .meta({ id: "Partner" });
export type PartnerRecord = z.infer<typeof partnerRecordSchema>;

/** The fields a distributor sets; null clears an optional one. */
export interface PartnerFields {
  name: string;
  contact_email?: string | null;
  product_type?: string | null;
  reply_to_email?: string | null;
  account_reference?: string | null;
  monthly_churn_limit?: number | null;
  basic_billing_code?: string | null;
  plus_billing_code?: string | null;
  pro_billing_code?: string | null;
  send_customer_welcome_emails?: boolean;
  send_transactional_emails?: boolean;
}

const partnerSelect = {
  id: true,
  name: true,
  contactEmail: true,
  productType: true,
  replyToEmail: true,
  accountReference: true,
  monthlyChurnLimit: true,
  basicBillingCode: true,
  plusBillingCode: true,
  proBillingCode: true,
  sendCustomerWelcomeEmails: true,
  sendTransactionalEmails: true,
} as const;

type PartnerRow = Prisma.PartnerGetPayload<{ select: typeof partnerSelect }>;

function toPartnerRecord(row: PartnerRow): PartnerRecord {
  return {
    uuid: row.id,
    name: row.name,
    contact_email: row.contactEmail,
    product_type: row.productType,
    reply_to_email: row.replyToEmail,
    account_reference: row.accountReference,
    monthly_churn_limit: row.monthlyChurnLimit,
    basic_billing_code: row.basicBillingCode,
    plus_billing_code: row.plusBillingCode,
    pro_billing_code: row.proBillingCode,
    send_customer_welcome_emails: row.sendCustomerWelcomeEmails,
    send_transactional_emails: row.sendTransactionalEmails,
  };
}

/** The columns of the fields given (undefined ones are left out, so an update leaves them alone). */
function toColumns(fields: Partial<PartnerFields>) {
  const text = (value: string | null | undefined) => (typeof value === "string" ? value.trim() || null : value);
  const name = fields.name?.trim();
  if (name === "") throw badRequest("Validation failed: name: Name is required");
  return {
    name,
    contactEmail: text(fields.contact_email),
    productType: text(fields.product_type),
    replyToEmail: text(fields.reply_to_email),
    accountReference: text(fields.account_reference),
    monthlyChurnLimit: fields.monthly_churn_limit,
    basicBillingCode: text(fields.basic_billing_code),
    plusBillingCode: text(fields.plus_billing_code),
    proBillingCode: text(fields.pro_billing_code),
    sendCustomerWelcomeEmails: fields.send_customer_welcome_emails,
    sendTransactionalEmails: fields.send_transactional_emails,
  };
}

/** A partner's three billing codes, as checkPartnerBillingCodes names them. */
function billingCodesOf(columns: { basicBillingCode?: string | null; plusBillingCode?: string | null; proBillingCode?: string | null }) {
  return {
    basic_billing_code: columns.basicBillingCode,
    plus_billing_code: columns.plusBillingCode,
    pro_billing_code: columns.proBillingCode,
  };
}

/** Creates a partner under a distributor (distributor API, admin CLI's create-partner). */
export async function createPartner(db: Db, input: PartnerFields & { distributorId: string }): Promise<{ id: string }> {
  const { distributorId, ...fields } = input;
  const columns = toColumns(fields);
  const distributor = isUuid(distributorId)
    ? await db.distributor.findUnique({ where: { id: distributorId }, select: { id: true } })
    : null;
  if (!distributor) throw notFound("Distributor not found");
  await checkPartnerBillingCodes(db, distributor.id, billingCodesOf(columns));
  return db.partner.create({ data: { ...columns, name: columns.name!, distributorId: distributor.id }, select: { id: true } });
}

/** One of the distributor's partners; another distributor's partner is not found. */
export async function getPartner(db: Db, distributorId: string, partnerId: string): Promise<PartnerRecord> {
  const row = await db.partner.findFirst({ where: ownPartnerWhere(distributorId, partnerId), select: partnerSelect });
  if (!row) throw notFound(PARTNER_NOT_FOUND);
  return toPartnerRecord(row);
}

/** Changes the fields given of one of the distributor's partners; returns the updated record. */
export async function updatePartner(
  db: Db,
  distributorId: string,
  partnerId: string,
  changes: Partial<PartnerFields>,
): Promise<PartnerRecord> {
  const current = await db.partner.findFirst({ where: ownPartnerWhere(distributorId, partnerId), select: partnerSelect });
  if (!current) throw notFound(PARTNER_NOT_FOUND);
  if (Object.values(changes).every((value) => value === undefined)) throw badRequest(PARTNER_UPDATE_EMPTY);
  const columns = toColumns(changes);
  await checkPartnerBillingCodes(db, distributorId, billingCodesOf(columns), billingCodesOf(current));
  return toPartnerRecord(await db.partner.update({ where: { id: partnerId }, data: columns, select: partnerSelect }));
}

export interface PartnerListItem {
  partner: PartnerRecord;
  createdAt: Date;
  customers: { total: number; active: number };
  /** Keys that are not revoked. */
  activeApiKeys: number;
}

export interface PartnerListPage {
  partners: PartnerListItem[];
  pagination: { totalCount: number; page: number; pageSize: number; hasNextPage: boolean };
}

/**
 * One page of the distributor's partners by name (ties by id), optionally only those whose name,
 * account reference or contact e-mail contains `search` (any case; taken literally), with their
 * customer and active key counts.
 */
export async function listPartners(
  db: Db,
  distributorId: string,
  { search, page, pageSize }: { search?: string; page: number; pageSize: number },
): Promise<PartnerListPage> {
  const text = search?.trim();
  // Prisma passes `contains` into ILIKE as it is: escape its wildcards so they match themselves.
  const contains = text ? { contains: text.replace(/[\\%_]/g, "\\$&"), mode: "insensitive" as const } : undefined;
  const where: Prisma.PartnerWhereInput = {
    distributorId,
    ...(contains ? { OR: [{ name: contains }, { accountReference: contains }, { contactEmail: contains }] } : {}),
  };
  const [totalCount, rows] = await Promise.all([
    db.partner.count({ where }),
    db.partner.findMany({
      where,
      orderBy: [{ name: "asc" }, { id: "asc" }],
      skip: (page - 1) * pageSize,
      take: pageSize,
      select: { ...partnerSelect, createdAt: true, _count: { select: { apiKeys: { where: { revokedAt: null } } } } },
    }),
  ]);
  const ids = rows.map((row) => row.id);
  const statusCounts = ids.length
    ? await db.customer.groupBy({ by: ["partnerId", "status"], where: { partnerId: { in: ids } }, _count: { _all: true } })
    : [];
  const customers = new Map(ids.map((id) => [id, { total: 0, active: 0 }]));
  for (const group of statusCounts) {
    const counts = customers.get(group.partnerId)!;
    counts.total += group._count._all;
    if (group.status === "active") counts.active += group._count._all;
  }
  return {
    partners: rows.map((row) => ({
      partner: toPartnerRecord(row),
      createdAt: row.createdAt,
      customers: customers.get(row.id)!,
      activeApiKeys: row._count.apiKeys,
    })),
    pagination: { totalCount, page, pageSize, hasNextPage: page * pageSize < totalCount },
  };
}

/** Throws not-found unless the partner exists and belongs to the distributor. */
export async function requireOwnPartner(db: Db, distributorId: string, partnerId: string): Promise<void> {
  const row = await db.partner.findFirst({ where: ownPartnerWhere(distributorId, partnerId), select: { id: true } });
  if (!row) throw notFound(PARTNER_NOT_FOUND);
}

/** The `where` of one of the distributor's partners; a malformed id is a bad request (400). */
function ownPartnerWhere(distributorId: string, partnerId: string) {
  if (!isUuid(partnerId)) throw badRequest(INVALID_PARTNER_ID);
  return { id: partnerId, distributorId };
}
