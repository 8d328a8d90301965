import type { Queryable } from "../db/client";
import type { PsaConnection } from "../db/generated/client";
import { log } from "../log";
import { queueNotification } from "../notifications/messages";

/**
 * Tells the partner's contact that its PSA refused the connection's credentials
 * (docs/integrations.md, "PSA: exactly once"), as endpoint health warnings are told: once per
 * failing episode. The cause names the episode by its start (`failing_since`), so a second call
 * for the same episode writes nothing; the caller calls it only when the state turned failing.
 * Returns the new messages' ids (none: the partner has no contact address).
 */
export async function queuePsaFailingNotice(
  tx: Queryable,
  connection: Pick<PsaConnection, "id" | "partnerId" | "provider" | "baseUrl" | "failingSince" | "lastError">,
): Promise<string[]> {
  const partner = await tx.partner.findUnique({ where: { id: connection.partnerId }, select: { name: true, contactEmail: true } });
  const recipient = partner?.contactEmail?.trim().toLowerCase();
  const facts = { connectionId: connection.id, partnerId: connection.partnerId };
  if (!partner || !recipient) {
    log.warn("psa failing notice not sent: the partner has no e-mail address", facts);
    return [];
  }
  const failingSince = (connection.failingSince ?? new Date()).toISOString();
  const ids = await queueNotification(tx, {
    partnerId: connection.partnerId,
    content: {
      kind: "psa_failing",
      data: {
        organizationName: partner.name,
        provider: connection.provider,
        baseUrl: connection.baseUrl,
        failingSince,
        lastError: connection.lastError ?? "",
      },
    },
    cause: `${connection.id}:${failingSince}`,
    localeCode: "en-GB",
    recipients: [recipient],
  });
  if (ids.length > 0) log.info("psa failing notice queued", { ...facts, messages: ids.length });
  return ids;
}
