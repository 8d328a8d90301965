import { randomUUID } from "node:crypto";
import { config } from "../config";
import type { Db, Queryable } from "../db/client";
import { badRequest, conflict, notFound } from "../errors";
import { log } from "../log";
import { renderStaffInvitationEmail } from "../notifications/templates/staff-invitation";
import { configuredTransport } from "../notifications/transport";
import { hashSecretToken, newSecretToken, SECRET_TOKEN_PATTERN } from "../secret-tokens";
import { createStaffUser } from "./staff";
import { endStaffSessions } from "./staff-sessions";
import type { StaffRole } from "./staff-roles";

/**
 * Owners manage their colleagues in the admin UI (docs/admin-ui.md, "Staff"): invite by e-mail
 * (a one-time link, 72 hours, to choose a password or sign in by single sign-on), change a role,
 * mark a break-glass account, remove. A distributor always keeps at least one owner.
 */
export const INVITATION_LIFETIME_SECONDS = 72 * 60 * 60;

export const LAST_OWNER = "A distributor keeps at least one owner: make another staff member owner first";
export const STAFF_NOT_FOUND = "Staff member not found";
export const INVITATION_INVALID = "This invitation link is not valid. Ask for a new invitation.";
export const INVITATION_EXPIRED = "This invitation link has expired. Ask for a new invitation.";
export const INVITATION_USED = "This invitation link has already been used or was withdrawn.";

export type InvitationState = "valid" | "invalid" | "expired" | "used";

export function staffInvitationUrl(token: string): string {
  return `${config.appUrl()}/admin/invitation?token=${token}`;
}

export interface StaffListing {
  staff: Array<{
    id: string;
    email: string;
    name: string | null;
    role: StaffRole;
    breakGlass: boolean;
    mfaEnrolled: boolean;
    ssoLinked: boolean;
    createdAt: Date;
    lastLoginAt: Date | null;
  }>;
  invitations: Array<{ id: string; email: string; role: StaffRole; createdAt: Date; expiresAt: Date; invitedBy: string | null }>;
}

export async function listStaff(db: Queryable, distributorId: string): Promise<StaffListing> {
  const [staff, invitations] = await Promise.all([
    db.staffUser.findMany({
      where: { distributorId },
      orderBy: [{ email: "asc" }],
      select: {
        id: true,
        email: true,
        name: true,
        role: true,
        breakGlass: true,
        totpEnabledAt: true,
        ssoSubject: true,
        createdAt: true,
        lastLoginAt: true,
      },
    }),
    db.staffInvitation.findMany({
      where: { distributorId, spentAt: null, expiresAt: { gt: new Date() } },
      orderBy: [{ createdAt: "desc" }],
      select: { id: true, email: true, role: true, createdAt: true, expiresAt: true, invitedBy: { select: { email: true } } },
    }),
  ]);
  return {
    staff: staff.map(({ totpEnabledAt, ssoSubject, ...member }) => ({
      ...member,
      mfaEnrolled: totpEnabledAt !== null,
      ssoLinked: ssoSubject !== null,
    })),
    invitations: invitations.map(({ invitedBy, ...invitation }) => ({ ...invitation, invitedBy: invitedBy?.email ?? null })),
  };
}

/** Whom an invitation addresses: one staff account per address across the service. */
async function refuseExistingAccount(db: Queryable, email: string): Promise<void> {
  if (await db.staffUser.findUnique({ where: { email }, select: { id: true } })) {
    throw conflict(`A staff user with e-mail ${email} already exists`);
  }
}

/**
 * Invites an address with a role: earlier open invitations of that address to the distributor
 * are withdrawn, the new link is e-mailed (SMTP or .eml files) and also answered, so the owner
 * can hand it over when mail does not reach. Only a hash of the token is stored.
 */
export async function inviteStaff(
  db: Db,
  input: { distributorId: string; invitedBy: { id: string; email: string }; email: string; role: StaffRole },
): Promise<{ id: string; email: string; role: StaffRole; expiresAt: Date; url: string; emailed: boolean }> {
  const email = input.email.trim().toLowerCase();
  await refuseExistingAccount(db, email);
  const token = newSecretToken();
  const invitation = await db.$transaction(async (tx) => {
    await tx.staffInvitation.updateMany({
      where: { distributorId: input.distributorId, email, spentAt: null },
      data: { spentAt: new Date() },
    });
    return tx.staffInvitation.create({
      data: {
        distributorId: input.distributorId,
        email,
        role: input.role,
        tokenHash: hashSecretToken(token),
        invitedById: input.invitedBy.id,
        expiresAt: new Date(Date.now() + INVITATION_LIFETIME_SECONDS * 1000),
      },
      select: {
        id: true,
        email: true,
        role: true,
        expiresAt: true,
        distributor: { select: { name: true, sso: { select: { issuer: true } } } },
      },
    });
  });
  const url = staffInvitationUrl(token);
  let emailed = false;
  try {
    const rendered = await renderStaffInvitationEmail({
      url,
      hours: INVITATION_LIFETIME_SECONDS / 3600,
      distributorName: invitation.distributor.name,
      role: invitation.role,
      invitedBy: input.invitedBy.email,
      adminUrl: `${config.appUrl()}/admin`,
      sso: invitation.distributor.sso !== null,
    });
    await configuredTransport().send({ notificationId: randomUUID(), to: email, replyTo: null, attachments: [], ...rendered });
    emailed = true;
  } catch (error) {
    log.error("staff invitation e-mail failed", { invitationId: invitation.id, error });
  }
  return { id: invitation.id, email: invitation.email, role: invitation.role, expiresAt: invitation.expiresAt, url, emailed };
}

export async function withdrawInvitation(db: Queryable, distributorId: string, invitationId: string): Promise<{ id: string }> {
  const withdrawn = await db.staffInvitation.updateMany({
    where: { id: invitationId, distributorId, spentAt: null },
    data: { spentAt: new Date() },
  });
  if (withdrawn.count === 0) throw notFound("Invitation not found");
  return { id: invitationId };
}

/** What the invitation page shows before anything is consumed. */
export async function invitationState(
  db: Queryable,
  token: string,
): Promise<{ state: InvitationState; email?: string; distributorId?: string; distributorName?: string; sso?: boolean }> {
  if (!SECRET_TOKEN_PATTERN.test(token)) return { state: "invalid" };
  const invitation = await db.staffInvitation.findUnique({
    where: { tokenHash: hashSecretToken(token) },
    select: {
      email: true,
      spentAt: true,
      expiresAt: true,
      distributorId: true,
      distributor: { select: { name: true, sso: { select: { issuer: true } } } },
    },
  });
  if (!invitation) return { state: "invalid" };
  const state: InvitationState = invitation.spentAt ? "used" : invitation.expiresAt <= new Date() ? "expired" : "valid";
  return {
    state,
    email: invitation.email,
    distributorId: invitation.distributorId,
    distributorName: invitation.distributor.name,
    sso: invitation.distributor.sso !== null,
  };
}

export function invitationRefusal(state: Exclude<InvitationState, "valid">): string {
  return { invalid: INVITATION_INVALID, expired: INVITATION_EXPIRED, used: INVITATION_USED }[state];
}

/**
 * Accepts an invitation with a new password: one conditional UPDATE spends it (of simultaneous
 * uses one succeeds) and the account is made with the invitation's role, in one transaction.
 */
export async function acceptInvitation(
  db: Db,
  input: { token: string; password: string; name?: string },
): Promise<{ id: string; email: string; distributorId: string; role: StaffRole }> {
  const current = await invitationState(db, input.token);
  if (current.state !== "valid") throw badRequest(invitationRefusal(current.state));
  return db.$transaction(async (tx) => {
    const [spent] = await tx.$queryRaw<Array<{ email: string; distributorId: string; role: StaffRole }>>`
      UPDATE staff_invitations SET spent_at = now()
      WHERE token_hash = ${hashSecretToken(input.token)} AND spent_at IS NULL AND expires_at > now()
      RETURNING email, distributor_id::text AS "distributorId", role::text AS role`;
    if (!spent) throw badRequest(INVITATION_USED);
    await refuseExistingAccount(tx, spent.email);
    const staff = await createStaffUser(tx, { ...spent, password: input.password, name: input.name });
    return { id: staff.id, email: spent.email, distributorId: spent.distributorId, role: spent.role };
  });
}

/**
 * The open invitation of this address to the distributor, spent as its first single sign-on
 * makes the account (server/auth/staff-sso.ts); undefined when there is none.
 */
export async function spendInvitationBySso(tx: Queryable, distributorId: string, email: string): Promise<{ role: StaffRole } | undefined> {
  const [spent] = await tx.$queryRaw<Array<{ role: StaffRole }>>`
    UPDATE staff_invitations SET spent_at = now()
    WHERE id = (SELECT id FROM staff_invitations WHERE distributor_id = ${distributorId}::uuid AND email = ${email}
                AND spent_at IS NULL AND expires_at > now() ORDER BY created_at DESC LIMIT 1)
    RETURNING role::text AS role`;
  return spent;
}

/** The distributor's staff member, locked for the change; another distributor's is not found. */
async function lockedMember(tx: Queryable, distributorId: string, staffId: string) {
  const [member] = await tx.$queryRaw<Array<{ id: string; email: string; role: StaffRole; breakGlass: boolean }>>`
    SELECT id::text AS id, email, role::text AS role, break_glass AS "breakGlass" FROM staff_users
    WHERE id = ${staffId}::uuid AND distributor_id = ${distributorId}::uuid FOR UPDATE`;
  if (!member) throw notFound(STAFF_NOT_FOUND);
  return member;
}

async function otherOwners(tx: Queryable, distributorId: string, staffId: string): Promise<number> {
  const owners = await tx.$queryRaw<Array<{ id: string }>>`
    SELECT id::text AS id FROM staff_users WHERE distributor_id = ${distributorId}::uuid AND role = 'owner' AND id <> ${staffId}::uuid FOR UPDATE`;
  return owners.length;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function changeStaffRole(
  db: Db,
  input: { distributorId: string; staffId: string; role: StaffRole },
): Promise<{ id: string; email: string; role: StaffRole }> {
  if (!UUID.test(input.staffId)) throw notFound(STAFF_NOT_FOUND);
  return db.$transaction(async (tx) => {
    const member = await lockedMember(tx, input.distributorId, input.staffId);
    if (member.role === "owner" && input.role !== "owner" && (await otherOwners(tx, input.distributorId, member.id)) === 0) {
      throw conflict(LAST_OWNER);
    }
    await tx.staffUser.update({ where: { id: member.id }, data: { role: input.role } });
    return { id: member.id, email: member.email, role: input.role };
  });
}

export async function setBreakGlass(
  db: Db,
  input: { distributorId: string; staffId: string; breakGlass: boolean },
): Promise<{ id: string; email: string; breakGlass: boolean }> {
  if (!UUID.test(input.staffId)) throw notFound(STAFF_NOT_FOUND);
  const member = await db.staffUser.findFirst({
    where: { id: input.staffId, distributorId: input.distributorId },
    select: { id: true, email: true },
  });
  if (!member) throw notFound(STAFF_NOT_FOUND);
  await db.staffUser.update({ where: { id: member.id }, data: { breakGlass: input.breakGlass } });
  return { ...member, breakGlass: input.breakGlass };
}

/** Removes a colleague: the account goes, and with it every session (its cookies stop at once). */
export async function removeStaffMember(db: Db, input: { distributorId: string; staffId: string }): Promise<{ id: string; email: string }> {
  if (!UUID.test(input.staffId)) throw notFound(STAFF_NOT_FOUND);
  return db.$transaction(async (tx) => {
    const member = await lockedMember(tx, input.distributorId, input.staffId);
    if (member.role === "owner" && (await otherOwners(tx, input.distributorId, member.id)) === 0) throw conflict(LAST_OWNER);
    await endStaffSessions(tx, member.id, "removed");
    await tx.staffUser.delete({ where: { id: member.id } });
    return { id: member.id, email: member.email };
  });
}
