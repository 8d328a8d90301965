import type { Db, Prisma } from "../db/client";
import type { CustomerStatus } from "../db/generated/enums";

export interface CustomerSearchItem {
  customerId: string;
  companyName: string;
  reference: string;
  status: CustomerStatus;
  contactEmail: string;
  partnerId: string;
  partnerName: string;
  createdAt: Date;
}

export interface CustomerSearchPage {
  customers: CustomerSearchItem[];
  pagination: { totalCount: number; page: number; pageSize: number; hasNextPage: boolean };
}

/**
 * The customers of all the distributor's partners whose company name, reference, contact e-mail
 * or a monitored domain or address contains `search` (any case; `%` and `_` match themselves),
 * by company name (ties by id). Without a search, every customer.
 */
export async function searchDistributorCustomers(
  db: Db,
  distributorId: string,
  { search, page, pageSize }: { search?: string; page: number; pageSize: number },
): Promise<CustomerSearchPage> {
  const text = search?.trim();
  // Prisma passes `contains` into ILIKE as it is: escape its wildcards so they match themselves.
  const contains = text ? { contains: text.replace(/[\\%_]/g, "\\$&"), mode: "insensitive" as const } : undefined;
  const where: Prisma.CustomerWhereInput = {
    partner: { distributorId },
    ...(contains
      ? {
          OR: [{ companyName: contains }, { reference: contains }, { contactEmail: contains }, { assets: { some: { value: contains } } }],
        }
      : {}),
  };
  const [totalCount, rows] = await Promise.all([
    db.customer.count({ where }),
    db.customer.findMany({
      where,
      orderBy: [{ companyName: "asc" }, { id: "asc" }],
      skip: (page - 1) * pageSize,
      take: pageSize,
      select: {
        id: true,
        companyName: true,
        reference: true,
        status: true,
        contactEmail: true,
        createdAt: true,
        partner: { select: { id: true, name: true } },
      },
    }),
  ]);
  return {
    customers: rows.map(({ id, partner, ...row }) => ({ ...row, customerId: id, partnerId: partner.id, partnerName: partner.name })),
    pagination: { totalCount, page, pageSize, hasNextPage: page * pageSize < totalCount },
  };
}
