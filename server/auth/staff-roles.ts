import { AppError } from "../errors";
import type { Queryable } from "../db/client";

/** The staff roles of a distributor (docs/admin-ui.md, "Roles"). */
export const STAFF_ROLES = ["owner", "admin", "agent", "viewer", "billing"] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/**
 * What an admin procedure or page needs, named by the least role that has it, and the roles that
 * have it: `viewer` is any role (reading), `agent` customers' support work, `billing` billing and
 * billing codes, `admin` partners, keys, endpoints, secrets and domains, `owner` staff, single
 * sign-on and MFA policy.
 */
export const STAFF_RULES = {
  viewer: ["owner", "admin", "agent", "viewer", "billing"],
  agent: ["owner", "admin", "agent"],
  billing: ["owner", "admin", "billing"],
  admin: ["owner", "admin"],
  owner: ["owner"],
} as const satisfies Record<string, readonly StaffRole[]>;
export type StaffRule = keyof typeof STAFF_RULES;

export function roleAllows(rule: StaffRule, role: StaffRole): boolean {
  return (STAFF_RULES[rule] as readonly StaffRole[]).includes(role);
}

export function isStaffRole(value: unknown): value is StaffRole {
  return typeof value === "string" && (STAFF_ROLES as readonly string[]).includes(value);
}

/** The 403 of a refused action: the role it needs (and the others that have it), and the caller's. */
export function roleRefusalMessage(rule: StaffRule, role: StaffRole): string {
  const others = STAFF_RULES[rule].filter((allowed) => allowed !== rule);
  const also = rule === "viewer" || others.length === 0 ? "" : ` (or ${others.join(" or ")})`;
  return `This needs the ${rule} role${also}; your role is ${role}`;
}

export function roleRefusal(rule: StaffRule, role: StaffRole): AppError {
  return new AppError("FORBIDDEN", roleRefusalMessage(rule, role));
}

/** Until a staff member who must enrol in MFA has done so, every other action answers this. */
export const MFA_ENROLMENT_REQUIRED = "Your distributor requires MFA: set up an authenticator app first (Account, MFA)";

/** What a signed-in staff member may do now, read on every call (a role change takes effect at once). */
export interface StaffAccess {
  role: StaffRole;
  email: string;
  mfaEnrolled: boolean;
  /** The distributor requires MFA, the staff member has none and signed in with a password. */
  mustEnrolMfa: boolean;
}

export async function staffAccess(
  db: Queryable,
  claims: { staffId: string; distributorId: string; sessionId?: string },
): Promise<StaffAccess | undefined> {
  const [row] = await db.$queryRaw<Array<{ role: StaffRole; email: string; mfa: boolean; mfaRequired: boolean; method: string | null }>>`
    SELECT staff.role::text AS role, staff.email, staff.totp_enabled_at IS NOT NULL AS mfa,
      distributor.staff_mfa_required AS "mfaRequired", session.method
    FROM staff_users AS staff
    JOIN distributors AS distributor ON distributor.id = staff.distributor_id
    LEFT JOIN staff_sessions AS session ON session.id = ${claims.sessionId ?? null}::uuid AND session.staff_user_id = staff.id
    WHERE staff.id = ${claims.staffId}::uuid AND staff.distributor_id = ${claims.distributorId}::uuid`;
  if (!row) return undefined;
  return {
    role: row.role,
    email: row.email,
    mfaEnrolled: row.mfa,
    mustEnrolMfa: row.mfaRequired && !row.mfa && row.method !== "sso",
  };
}
