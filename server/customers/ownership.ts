import type { CustomerStatus } from "../db/generated/enums";
import { notFound } from "../errors";
import type { Queryable } from "../db/client";
import { isUuid } from "../uuid";

/** The answer for a customer id unknown or belonging to another partner (docs/customers.md). */
export const CUSTOMER_NOT_FOUND = "Customer not found or does not belong to partner";

export interface LockedCustomer {
  id: string;
  companyName: string;
  reference: string;
  status: CustomerStatus;
}

/**
 * The partner's customer, locked for update until the transaction ends, so changes to one
 * customer (status, assets) run one after the other. A customer of another partner is not
 * found, exactly like an unknown id: nobody learns that it exists.
 */
export async function lockOwnedCustomer(
  tx: Queryable,
  partnerId: string,
  customerId: string,
  notFoundMessage = CUSTOMER_NOT_FOUND,
): Promise<LockedCustomer> {
  const rows = isUuid(customerId)
    ? await tx.$queryRaw<LockedCustomer[]>`
        SELECT id::text, company_name AS "companyName", reference, status::text AS status
        FROM customers WHERE id = ${customerId}::uuid AND partner_id = ${partnerId}::uuid
        FOR UPDATE`
    : [];
  return foundOrNotFound(rows[0] ?? null, notFoundMessage);
}

/** The `where` of one customer of the partner; a malformed id is not found (not a database error). */
export function ownedCustomerWhere(partnerId: string, customerId: string, notFoundMessage = CUSTOMER_NOT_FOUND) {
  if (!isUuid(customerId)) throw notFound(notFoundMessage);
  return { id: customerId, partnerId };
}

/** The row of an owned-customer query, or the not-found answer when there is none. */
export function foundOrNotFound<T>(row: T | null, notFoundMessage = CUSTOMER_NOT_FOUND): T {
  if (row === null) throw notFound(notFoundMessage);
  return row;
}
