import { Prisma, type Db } from "../db/client";
import { defineJob } from "../jobs/definition";
import { wakeJobWorkers } from "../jobs/wake";
import { log } from "../log";
import { queueNotification, type NotificationAddressee } from "../notifications/messages";
import type { OrganizationNotificationContent, WebhookHealthEndpoint } from "../notifications/types";
import { endpointApiPath } from "./api-paths";
import { AUTO_DISABLE_AFTER_FAILURES } from "./delivery-engine/limits";
import { endpointHealthJobType, type EndpointHealthChange } from "./endpoint-health-job";

/**
 * Telling an endpoint's owner that the endpoint started failing or was disabled by the service
 * (docs/webhooks.md, "Health and warnings"). The delivery engine queues one job per state
 * change, in the statement that records the outcome; this job writes the e-mail through the
 * notifications pipeline, at most once per endpoint, state change and recipient.
 */

/** Who is told; docs/webhooks.md says why a distributor's staff (it has no contact address). */
async function recipientsOf(
  db: Db,
  endpoint: { partner: { contactEmail: string | null } | null; distributorId: string | null },
): Promise<string[]> {
  if (endpoint.partner) return endpoint.partner.contactEmail?.trim() ? [endpoint.partner.contactEmail.trim().toLowerCase()] : [];
  const staff = await db.staffUser.findMany({
    where: { distributorId: endpoint.distributorId! },
    select: { email: true },
    orderBy: { email: "asc" },
  });
  return staff.map((member) => member.email.trim().toLowerCase());
}

/** Times in the payload are the endpoint's own columns (milliseconds); a payload written with microseconds still matches. */
const sameInstant = (stored: Date | null, at: Date) => stored !== null && Math.abs(stored.getTime() - at.getTime()) < 1;

/**
 * Writes the owner's message about one state change, unless the endpoint has left that state
 * meanwhile (recovered, re-enabled, deleted: nothing to tell any more), the owner has no
 * address, or a message about this change exists already. Returns the new messages' ids.
 */
export async function queueEndpointHealthNotice(db: Db, change: EndpointHealthChange): Promise<string[]> {
  const at = new Date(change.at);
  const endpoint = await db.webhookEndpoint.findUnique({
    where: { id: change.endpointId },
    include: { partner: { select: { name: true, contactEmail: true } }, distributor: { select: { name: true } } },
  });
  const facts = { endpointId: change.endpointId, change: change.change, at: change.at };
  if (!endpoint) {
    log.info("webhook health notice not sent: the endpoint is gone", facts);
    return [];
  }
  // A failing endpoint that is disabled by now gets the disable's message alone (a 410 does both at once).
  const current =
    change.change === "failing"
      ? endpoint.enabled && sameInstant(endpoint.failingSince, at)
      : !endpoint.enabled &&
        sameInstant(endpoint.disabledAt, at) &&
        (endpoint.disabledKind === "failing" || endpoint.disabledKind === "gone");
  if (!current) {
    log.info("webhook health notice not sent: the endpoint is no longer in that state", facts);
    return [];
  }
  const recipients = await recipientsOf(db, endpoint);
  if (recipients.length === 0) {
    log.warn("webhook health notice not sent: the owner has no e-mail address", {
      ...facts,
      partnerId: endpoint.partnerId,
      distributorId: endpoint.distributorId,
    });
    return [];
  }

  // The failed deliveries of this run: the oldest is where recovery starts, the newest says what went wrong.
  const runStart = endpoint.failingSince ?? endpoint.disabledAt ?? at;
  const failedInRun = { endpointId: endpoint.id, status: "failed" as const, isTest: false, updatedAt: { gte: runStart } };
  const [oldest, latest] = await Promise.all([
    db.webhookDelivery.findFirst({ where: failedInRun, orderBy: { createdAt: "asc" }, select: { createdAt: true } }),
    db.webhookDelivery.findFirst({ where: failedInRun, orderBy: { updatedAt: "desc" }, select: { lastError: true } }),
  ]);
  const stateAt = (change.change === "failing" ? endpoint.failingSince : endpoint.disabledAt)!;
  const described: WebhookHealthEndpoint = {
    id: endpoint.id,
    url: endpoint.url,
    protocol: endpoint.protocol,
    apiPath: endpointApiPath({ ...endpoint, owner: endpoint.partnerId ? "partner" : "distributor" }),
    adminPath: endpoint.partnerId ? null : `/admin/webhooks/${endpoint.id}`,
  };
  const organizationName = endpoint.partner?.name ?? endpoint.distributor?.name ?? "";
  const lastSuccessAt = endpoint.lastSuccessAt?.toISOString() ?? null;
  const recoverSince = (oldest?.createdAt ?? runStart).toISOString();
  const content: OrganizationNotificationContent =
    change.change === "failing"
      ? {
          kind: "webhook_failing",
          data: {
            organizationName,
            endpoint: described,
            failingSince: stateAt.toISOString(),
            consecutiveFailures: endpoint.consecutiveFailures,
            lastError: latest?.lastError ?? null,
            lastSuccessAt,
            recoverSince,
            disableAfter: AUTO_DISABLE_AFTER_FAILURES,
          },
        }
      : {
          kind: "webhook_disabled",
          data: {
            organizationName,
            endpoint: described,
            disabledKind: endpoint.disabledKind as "failing" | "gone",
            disabledReason: endpoint.disabledReason,
            disabledAt: stateAt.toISOString(),
            lastSuccessAt,
            recoverSince,
          },
        };
  // The cause names the state change by the endpoint's own time of it, so every run of this job for it writes the same key.
  const cause = `${endpoint.id}:${stateAt.toISOString()}`;
  const owner = endpoint.partnerId
    ? {
        key: Prisma.sql`partner_id`,
        id: endpoint.partnerId,
        addressee: { partnerId: endpoint.partnerId, content } satisfies NotificationAddressee,
      }
    : {
        key: Prisma.sql`distributor_id`,
        id: endpoint.distributorId!,
        addressee: { distributorId: endpoint.distributorId!, content } satisfies NotificationAddressee,
      };
  // At most one message per state change: none once any recipient has one (the unique key covers concurrent runs per recipient).
  const ids = await queueNotification(
    db,
    { ...owner.addressee, cause, localeCode: "en-GB", recipients },
    Prisma.sql`NOT EXISTS (SELECT 1 FROM notifications WHERE ${owner.key} = ${owner.id}::uuid AND kind = ${content.kind}::notification_kind AND cause = ${cause})`,
  );
  if (ids.length > 0) log.info("webhook health notice queued", { ...facts, messages: ids.length });
  return ids;
}

/** The engine's job per state change (contract in docs/webhooks.md). */
export const endpointHealthJob = defineJob(endpointHealthJobType, {
  async run(db, payload) {
    if ((await queueEndpointHealthNotice(db, payload)).length > 0) await wakeJobWorkers();
  },
});
