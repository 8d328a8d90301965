import { issueApiKey } from "./auth/api-keys";
import type { Db } from "./db/client";
import { createDistributor } from "./distributors/distributors";
import { createPartner } from "./distributors/partners";

export interface DemoCredentials {
  distributor: { id: string; apiKey: string };
  partner: { id: string; apiKey: string };
}

/**
 * On an empty embedded database (a first `npm start`), a demo distributor and partner so the
 * API can be tried at once. Returns undefined when the database already has a distributor.
 */
export async function seedDemoIfEmpty(db: Db): Promise<DemoCredentials | undefined> {
  if ((await db.distributor.count()) > 0) return undefined;
  const distributor = await createDistributor(db, { name: "Demo Distributor" });
  const partner = await createPartner(db, { distributorId: distributor.id, name: "Demo Partner" });
  const distributorKey = await issueApiKey(db, { distributorId: distributor.id }, "demo");
  const partnerKey = await issueApiKey(db, { partnerId: partner.id }, "demo");
  return {
    distributor: { id: distributor.id, apiKey: distributorKey.apiKey },
    partner: { id: partner.id, apiKey: partnerKey.apiKey },
  };
}

export function describeDemoCredentials(demo: DemoCredentials, appUrl: string): string {
  return [
    "",
    "Demo data created on the empty embedded database. The keys are shown this once:",
    `  Distributor  SW-DISTRIBUTOR-ID: ${demo.distributor.id}`,
    `               SW-API-KEY:        ${demo.distributor.apiKey}`,
    `  Partner      SW-PARTNER-ID:     ${demo.partner.id}`,
    `               SW-API-KEY:        ${demo.partner.apiKey}`,
    "Try:",
    `  curl -H "SW-PARTNER-ID: ${demo.partner.id}" -H "SW-API-KEY: ${demo.partner.apiKey}" ${appUrl}/api/v1/integrations/partner/plans`,
    `API reference: ${appUrl}/docs`,
    "",
  ].join("\n");
}
