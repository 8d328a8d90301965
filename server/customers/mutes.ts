import type { Db, Queryable } from "../db/client";
import type { MuteSource } from "../db/generated/enums";
import { badRequest, notFound } from "../errors";
import { isUuid } from "../uuid";
import { CUSTOMER_NOT_FOUND, lockOwnedCustomer, ownedCustomerWhere } from "./ownership";

export const MUTE_TARGET_REQUIRED = "At least one of email and breachId must be provided";
export const MUTE_BREACH_NOT_FOUND = "Breach not found for this customer";
export const MUTE_UNTIL_PAST = "until must be in the future";
export const MUTE_NOT_FOUND = "Mute not found";

export interface MuteView {
  id: string;
  email: string | null;
  /** The customer's breach instance (its breach list's id); null for every breach. */
  breachId: string | null;
  breachName: string | null;
  until: string | null;
  mutedBy: MuteSource;
  createdAt: string;
}

/**
 * Mutes a mailbox, a breach, or one mailbox in one breach of the customer for every human
 * channel (docs/notifications.md, "Mutes"), until `until` or for good. Muting what is muted
 * already changes that mute's end. `breachId` is the customer's breach instance.
 */
export async function muteNotices(
  db: Db,
  customerId: string,
  input: { email?: string; breachId?: string; until?: Date; mutedBy: MuteSource; partnerId?: string },
): Promise<MuteView> {
  if (!input.email && !input.breachId) throw badRequest(MUTE_TARGET_REQUIRED);
  if (input.until && input.until.getTime() <= Date.now()) throw badRequest(MUTE_UNTIL_PAST);
  const email = input.email?.trim().toLowerCase() ?? null;
  const id = await db.$transaction(async (tx) => {
    if (input.partnerId) await lockOwnedCustomer(tx, input.partnerId, customerId);
    const instance = input.breachId
      ? isUuid(input.breachId)
        ? await tx.customerBreach.findFirst({ where: { id: input.breachId, customerId }, select: { breachId: true } })
        : null
      : undefined;
    if (instance === null) throw notFound(MUTE_BREACH_NOT_FOUND);
    const breachId = instance?.breachId ?? null;
    const existing = await tx.notificationMute.findFirst({ where: { customerId, email, breachId }, select: { id: true } });
    if (existing) {
      await tx.notificationMute.update({ where: { id: existing.id }, data: { until: input.until ?? null, mutedBy: input.mutedBy } });
      return existing.id;
    }
    const created = await tx.notificationMute.create({
      data: { customerId, email, breachId, until: input.until ?? null, mutedBy: input.mutedBy },
      select: { id: true },
    });
    return created.id;
  });
  return (await listMutes(db, customerId)).find((mute) => mute.id === id)!;
}

/** The customer's mutes in force (expired ones are left out), newest first. */
export async function listMutes(db: Queryable, customerId: string): Promise<MuteView[]> {
  const rows = await db.$queryRaw<Array<Omit<MuteView, "until" | "createdAt"> & { until: Date | null; createdAt: Date }>>`
    SELECT m.id::text, m.email, cb.id::text AS "breachId", b.name AS "breachName", m.until, m.muted_by::text AS "mutedBy",
           m.created_at AS "createdAt"
    FROM notification_mutes m
    LEFT JOIN breaches b ON b.id = m.breach_id
    LEFT JOIN customer_breaches cb ON cb.customer_id = m.customer_id AND cb.breach_id = m.breach_id
    WHERE m.customer_id = ${customerId}::uuid AND (m.until IS NULL OR m.until > now())
    ORDER BY m.created_at DESC, m.id`;
  return rows.map((row) => ({ ...row, until: row.until?.toISOString() ?? null, createdAt: row.createdAt.toISOString() }));
}

/** The partner's customer's mutes (REST). */
export async function listOwnedMutes(db: Db, partnerId: string, customerId: string): Promise<MuteView[]> {
  if ((await db.customer.count({ where: ownedCustomerWhere(partnerId, customerId) })) === 0) throw notFound(CUSTOMER_NOT_FOUND);
  return listMutes(db, customerId);
}

/** Ends a mute of the customer at once; another customer's mute is not found. `partnerId`: the caller must own the customer. */
export async function deleteMute(db: Db, customerId: string, muteId: string, partnerId?: string): Promise<void> {
  if (partnerId && (await db.customer.count({ where: ownedCustomerWhere(partnerId, customerId) })) === 0)
    throw notFound(CUSTOMER_NOT_FOUND);
  const deleted = isUuid(muteId) ? await db.notificationMute.deleteMany({ where: { id: muteId, customerId } }) : { count: 0 };
  if (deleted.count === 0) throw notFound(MUTE_NOT_FOUND);
}

/** Whether the breach instance (every mailbox of it) is muted for the customer now (the portal's toggle). */
export async function isBreachMuted(db: Queryable, customerId: string, breachInstanceId: string): Promise<boolean> {
  return (await listMutes(db, customerId)).some((mute) => mute.breachId === breachInstanceId && mute.email === null);
}

/** The portal's "mute": mutes every mailbox of the customer's breach instance for good, or ends that mute. */
export async function setBreachMuted(db: Db, customerId: string, breachInstanceId: string, muted: boolean): Promise<{ muted: boolean }> {
  if (muted) {
    await muteNotices(db, customerId, { breachId: breachInstanceId, mutedBy: "customer" });
    return { muted };
  }
  const instance = isUuid(breachInstanceId)
    ? await db.customerBreach.findFirst({ where: { id: breachInstanceId, customerId }, select: { breachId: true } })
    : null;
  if (!instance) throw notFound(MUTE_BREACH_NOT_FOUND);
  await db.notificationMute.deleteMany({ where: { customerId, breachId: instance.breachId, email: null } });
  return { muted };
}
