import type { Queryable } from "../db/client";

/** The migration that added audit_entries (and roles, MFA and single sign-on). */
export const STAFF_ACCESS_MIGRATION = "20261203142906_staff_access";

/** The audit action of a one-time portal sign-in link handed out by staff for support. */
export const SUPPORT_SIGN_IN_ACTION = "customer.support-sign-in-link";

/**
 * The support sign-in links recorded in staff_audit_entries before the audit log existed become
 * rows of the log, as the admin UI writes them now (run once, when migration staff_access runs).
 */
export async function copySupportSignInEntries(tx: Queryable): Promise<number> {
  return tx.$executeRaw`
    INSERT INTO audit_entries (distributor_id, actor_kind, actor_id, actor_label, action, target_type, target_id, created_at)
    SELECT distributor_id, 'staff', staff_user_id::text, staff_email, ${SUPPORT_SIGN_IN_ACTION}, 'customer', customer_id::text, created_at
    FROM staff_audit_entries WHERE action = 'portal-sign-in-link'`;
}
