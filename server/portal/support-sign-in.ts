import { recordAudit } from "../audit/log";
import { SUPPORT_SIGN_IN_ACTION } from "../audit/support-sign-in-entries";
import { staffOwnedCustomer } from "../customers/staff-view";
import type { Db } from "../db/client";
import { log } from "../log";
import { insertMagicLink, signInTarget } from "./magic-links";

export { SUPPORT_SIGN_IN_ACTION };

/**
 * A one-time portal sign-in link for the customer, for a staff member to hand over in support:
 * the same link (and refusals) as the partner API's magic-link, written together with its row of
 * the audit log (who asked for it, when, from where, for which customer). The URL is returned once and
 * never stored or logged.
 */
export async function createSupportSignInLink(
  db: Db,
  staff: { id: string; email: string; distributorId: string },
  customerId: string,
  clientAddress?: string,
): Promise<{ url: string }> {
  const customer = await staffOwnedCustomer(db, staff.distributorId, customerId);
  const url = await db.$transaction(async (tx) => {
    const portalUserId = await signInTarget(tx, customer.partnerId, customer.id);
    await recordAudit(tx, {
      distributorId: staff.distributorId,
      actor: { kind: "staff", staffId: staff.id, email: staff.email },
      clientAddress,
      action: SUPPORT_SIGN_IN_ACTION,
      target: { type: "customer", id: customer.id },
    });
    return insertMagicLink(tx, portalUserId);
  });
  log.info("support sign-in link created", { customerId: customer.id, staffUserId: staff.id });
  return { url };
}
