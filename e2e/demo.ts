import type { DemoCredentials } from "../scripts/lib/service-process";

/** The demo organization `npm start` created and printed (read by e2e/global-setup.ts). */
export function demo(): DemoCredentials {
  const raw = process.env.E2E_DEMO;
  if (!raw) throw new Error("E2E_DEMO is not set: e2e/global-setup.ts did not run");
  return JSON.parse(raw) as DemoCredentials;
}

export const partnerHeaders = () => ({ "SW-PARTNER-ID": demo().partnerId, "SW-API-KEY": demo().partnerKey });
export const distributorHeaders = () => ({ "SW-DISTRIBUTOR-ID": demo().distributorId, "SW-API-KEY": demo().distributorKey });
