import type { Db } from "../db/client";
import type { PsaConnection } from "../db/generated/client";
import { setBreachResolved } from "../findings/instances";
import { log } from "../log";
import type { PsaAdapter } from "./adapter";

/**
 * The other way (docs/integrations.md, "Two-way"): tickets closed in the PSA resolve their
 * breach instances, with the usual customer.breach.resolved event. In per-mailbox mode an
 * instance is resolved when its last open ticket closes.
 */
export async function pollClosedTickets(db: Db, connection: PsaConnection, adapter: PsaAdapter): Promise<number> {
  const open = await db.psaTicket.findMany({
    where: { connectionId: connection.id, closedAt: null, externalId: { not: null } },
    select: { id: true, externalId: true, breachInstanceId: true },
  });
  const closedIds = new Set(open.length > 0 ? await adapter.listClosed(open.map((ticket) => ticket.externalId!)) : []);
  const closed = open.filter((ticket) => closedIds.has(ticket.externalId!));
  for (const ticket of closed) {
    await db.psaTicket.updateMany({ where: { id: ticket.id, closedAt: null }, data: { closedAt: new Date(), closedBy: "psa" } });
  }
  for (const instanceId of new Set(closed.map((ticket) => ticket.breachInstanceId))) {
    const stillOpen = await db.psaTicket.count({ where: { connectionId: connection.id, breachInstanceId: instanceId, closedAt: null } });
    if (stillOpen > 0) continue;
    await setBreachResolved(db, connection.partnerId, { breachInstanceId: instanceId, resolved: true });
    log.info("breach instance resolved: its PSA ticket was closed", { connectionId: connection.id, breachInstanceId: instanceId });
  }
  await db.psaConnection.update({ where: { id: connection.id }, data: { lastPolledAt: new Date() } });
  return closed.length;
}
