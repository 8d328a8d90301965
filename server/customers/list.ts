import type { Db } from "../db/client";
import type { CustomerStatus } from "../db/generated/enums";
import { toAssetLists } from "./assets";

export const CUSTOMER_STATUSES = ["active", "inactive", "dormant", "prospect"] as const satisfies readonly CustomerStatus[];

export interface CustomerListQuery {
  page: number;
  pageSize: number;
  status?: CustomerStatus;
}

export interface CustomerListItem {
  customerId: string;
  customerRef: string;
  customerStatus: CustomerStatus;
  breachStatus: boolean;
  /** Breach instances of the customer, resolved ones included. */
  breachCount: number;
  domains: string[];
  emails: string[];
}

export interface CustomerListPage {
  customers: CustomerListItem[];
  pagination: { totalCount: number; page: number; pageSize: number; hasNextPage: boolean };
}

/**
 * One page of the partner's customers, newest first (ties by id, so pages never overlap or skip),
 * optionally of one status. totalCount counts every customer the filter matches.
 */
export async function listPartnerCustomers(db: Db, partnerId: string, query: CustomerListQuery): Promise<CustomerListPage> {
  const { page, pageSize, status } = query;
  const where = { partnerId, ...(status ? { status } : {}) };
  const [totalCount, rows] = await Promise.all([
    db.customer.count({ where }),
    db.customer.findMany({
      where,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: (page - 1) * pageSize,
      take: pageSize,
      select: {
        id: true,
        reference: true,
        status: true,
        assets: { select: { kind: true, value: true } },
        _count: { select: { breaches: true } },
      },
    }),
  ]);
  return {
    customers: rows.map((row) => ({
      customerId: row.id,
      customerRef: row.reference,
      customerStatus: row.status,
      breachStatus: row._count.breaches > 0,
      breachCount: row._count.breaches,
      ...toAssetLists(row.assets),
    })),
    pagination: { totalCount, page, pageSize, hasNextPage: page * pageSize < totalCount },
  };
}
