import { randomUUID } from "node:crypto";
import { issueApiKey } from "../../server/auth/api-keys";
import type { Db } from "../../server/db/client";
import type { DomainPolicy } from "../../server/db/generated/enums";
import { createDistributor } from "../../server/distributors/distributors";
import { createPartner } from "../../server/distributors/partners";

export interface TestOrg {
  distributor: { id: string; apiKey: string; headers: Record<string, string> };
  partner: { id: string; apiKey: string; headers: Record<string, string> };
  /** The distributor's key acting for the partner (SW-PARTNER-ID + distributor key). */
  onBehalfHeaders: Record<string, string>;
}

/**
 * A distributor with one partner, each with an API key, and the headers to call as them. Its
 * domain policy is `trusted` (the specified behaviour most suites test) unless one is given.
 */
export async function createTestOrg(
  db: Db,
  name = `Org ${randomUUID().slice(0, 8)}`,
  { domainPolicy = "trusted" }: { domainPolicy?: DomainPolicy } = {},
): Promise<TestOrg> {
  const distributor = await createDistributor(db, { name: `${name} distributor`, domainPolicy });
  const distributorKey = await issueApiKey(db, { distributorId: distributor.id });
  const partner = await createPartner(db, { distributorId: distributor.id, name: `${name} partner` });
  const partnerKey = await issueApiKey(db, { partnerId: partner.id });
  return {
    distributor: {
      id: distributor.id,
      apiKey: distributorKey.apiKey,
      headers: { "SW-DISTRIBUTOR-ID": distributor.id, "SW-API-KEY": distributorKey.apiKey },
    },
    partner: {
      id: partner.id,
      apiKey: partnerKey.apiKey,
      headers: { "SW-PARTNER-ID": partner.id, "SW-API-KEY": partnerKey.apiKey },
    },
    onBehalfHeaders: { "SW-PARTNER-ID": partner.id, "SW-API-KEY": distributorKey.apiKey },
  };
}
