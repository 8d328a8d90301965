import { staffOwnedCustomer } from "../customers/staff-view";
import type { Db } from "../db/client";
import { log } from "../log";
import { insertMagicLink, signInTarget } from "./magic-links";

/** The audit action of a portal sign-in link handed out by staff. */
export const SUPPORT_SIGN_IN_ACTION = "portal-sign-in-link";

/**
 * A one-time portal sign-in link for the customer, for a staff member to hand over in support:
 * the same link (and refusals) as the partner API's magic-link, written together with an audit
 * entry saying who asked for it, when, and for which customer. The URL is returned once and
 * never stored or logged.
 */
export async function createSupportSignInLink(
  db: Db,
  staff: { id: string; email: string; distributorId: string },
  customerId: string,
): Promise<{ url: string }> {
  const customer = await staffOwnedCustomer(db, staff.distributorId, customerId);
  const url = await db.$transaction(async (tx) => {
    const portalUserId = await signInTarget(tx, customer.partnerId, customer.id);
    await tx.staffAuditEntry.create({
      data: {
        distributorId: staff.distributorId,
        staffUserId: staff.id,
        staffEmail: staff.email,
        action: SUPPORT_SIGN_IN_ACTION,
        customerId: customer.id,
      },
    });
    return insertMagicLink(tx, portalUserId);
  });
  log.info("support sign-in link created", { customerId: customer.id, staffUserId: staff.id });
  return { url };
}
