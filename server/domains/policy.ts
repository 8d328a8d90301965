import type { Db } from "../db/client";
import type { DomainPolicy } from "../db/generated/enums";
import { badRequest, notFound } from "../errors";
import { isUuid } from "../uuid";

/** A distributor's domain policy (docs/domains.md): `verified` (the default) or `trusted`. */
export const DOMAIN_POLICIES = ["verified", "trusted"] as const satisfies readonly DomainPolicy[];
export type { DomainPolicy };

export const DISTRIBUTOR_NOT_FOUND = "Distributor not found";

export function parseDomainPolicy(value: string): DomainPolicy {
  if ((DOMAIN_POLICIES as readonly string[]).includes(value)) return value as DomainPolicy;
  throw badRequest(`Domain policy must be one of ${DOMAIN_POLICIES.join(", ")}`);
}

/**
 * Sets a distributor's domain policy. Only what scans find from then on follows it: what was
 * revealed stays revealed, and what was withheld is revealed by verifying its domain.
 */
export async function setDomainPolicy(
  db: Db,
  distributorId: string,
  policy: DomainPolicy,
): Promise<{ id: string; domainPolicy: DomainPolicy }> {
  if (!isUuid(distributorId)) throw notFound(DISTRIBUTOR_NOT_FOUND);
  const updated = await db.distributor.updateMany({ where: { id: distributorId }, data: { domainPolicy: policy } });
  if (updated.count === 0) throw notFound(DISTRIBUTOR_NOT_FOUND);
  return { id: distributorId, domainPolicy: policy };
}
