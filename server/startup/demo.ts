import { randomBytes } from "node:crypto";
import { issueApiKey } from "../auth/api-keys";
import { createStaffUser } from "../auth/staff";
import { DEMO_DOMAINS, importDemoBreachData } from "../breaches/exposure-index/demo";
import { scanCustomer } from "../findings/scanner";
import { localBreachSource } from "../breaches/exposure-index/sources/local";
import { syncBillingPeriod } from "../customers/billing-periods";
import { recountCustomerFigures } from "../customers/figures";
import { config } from "../config";
import type { Db } from "../db/client";
import { createDistributor } from "../distributors/distributors";
import { createPartner } from "../distributors/partners";

export interface DemoCredentials {
  distributor: { id: string; apiKey: string };
  partner: { id: string; apiKey: string };
  /** The demo distributor's staff account for the admin UI (/admin). */
  staff: { email: string; password: string };
  customers: Array<{ id: string; companyName: string; status: "active" | "prospect" }>;
}

const DEMO_STAFF_EMAIL = "admin@demo-distributor.example";

const DEMO_CUSTOMERS = [
  { companyName: "Northwind Traders", reference: "DEMO-NORTHWIND", status: "active", domain: DEMO_DOMAINS[0] },
  { companyName: "Contoso", reference: "DEMO-CONTOSO", status: "active", domain: DEMO_DOMAINS[1] },
  { companyName: "Fabrikam", reference: "DEMO-FABRIKAM", status: "prospect", domain: DEMO_DOMAINS[2] },
] as const;

/**
 * On an empty database (a first `npm start` on the embedded one, or with SEED_DEMO), a demo
 * distributor and partner so the API can be tried at once, a staff account of the distributor
 * for the admin UI (with a random password, printed once; the distributor may import breach data), the bundled breach catalogue with
 * deterministic demo exposures, and three demo customers (two active, one prospect) already
 * scanned, so breach endpoints show real findings. Returns undefined when the database already
 * has a distributor.
 */
export async function seedDemoIfEmpty(db: Db): Promise<DemoCredentials | undefined> {
  if ((await db.distributor.count()) > 0) return undefined;
  const distributor = await createDistributor(db, { name: "Demo Distributor", domainPolicy: "trusted" });
  // Its owner may upload breach data in the admin UI, so a partner can try their own domain at once.
  await db.distributor.update({ where: { id: distributor.id }, data: { importsBreachData: true } });
  const partner = await createPartner(db, { distributorId: distributor.id, name: "Demo Partner" });
  const distributorKey = await issueApiKey(db, { distributorId: distributor.id }, "demo");
  const partnerKey = await issueApiKey(db, { partnerId: partner.id }, "demo");
  const staff = { email: DEMO_STAFF_EMAIL, password: randomBytes(12).toString("base64url") };
  await createStaffUser(db, { distributorId: distributor.id, ...staff, name: "Demo admin" });
  await importDemoBreachData(db);
  const plan = await db.plan.findFirstOrThrow({ where: { isSystemDefault: true } });
  const customers: DemoCredentials["customers"] = [];
  for (const demo of DEMO_CUSTOMERS) {
    const customer = await db.customer.create({
      data: {
        partnerId: partner.id,
        reference: demo.reference,
        companyName: demo.companyName,
        contactEmail: `it@${demo.domain}`,
        // As onboarding defaults them: alerts to the contact e-mail (so `npm start` shows mail at /admin/mail).
        alertRecipients: [`it@${demo.domain}`],
        sendMonthlyReport: true,
        currencyCode: "GBP",
        planId: plan.id,
        status: demo.status,
        assets: { create: { kind: "domain", value: demo.domain, domain: demo.domain } },
        portalUser: { create: { email: `it@${demo.domain}` } },
      },
      select: { id: true },
    });
    await recountCustomerFigures(db, [customer.id]);
    await syncBillingPeriod(db, customer.id);
    await scanCustomer(db, customer.id, "onboard", localBreachSource);
    customers.push({ id: customer.id, companyName: demo.companyName, status: demo.status });
  }
  return {
    distributor: { id: distributor.id, apiKey: distributorKey.apiKey },
    partner: { id: partner.id, apiKey: partnerKey.apiKey },
    staff,
    customers,
  };
}

export function describeDemoCredentials(demo: DemoCredentials, appUrl: string): string {
  const auth = `-H "SW-PARTNER-ID: ${demo.partner.id}" -H "SW-API-KEY: ${demo.partner.apiKey}"`;
  return [
    "",
    "Demo data created on the empty database. The keys are shown this once:",
    `  Distributor  SW-DISTRIBUTOR-ID: ${demo.distributor.id}`,
    `               SW-API-KEY:        ${demo.distributor.apiKey}`,
    `  Partner      SW-PARTNER-ID:     ${demo.partner.id}`,
    `               SW-API-KEY:        ${demo.partner.apiKey}`,
    `  Admin UI     E-mail:            ${demo.staff.email}`,
    `               Password:          ${demo.staff.password}`,
    `               Sign in at ${appUrl}/admin`,
    "Demo customers (scanned against the bundled Have I Been Pwned catalogue, CC BY 4.0, with generated demo exposures):",
    ...demo.customers.map((customer) => `  ${customer.companyName.padEnd(18)} ${customer.status.padEnd(9)} ${customer.id}`),
    "Try:",
    `  curl ${auth} ${appUrl}/api/v1/integrations/partner/plans`,
    `  curl ${auth} ${appUrl}/api/v1/integrations/customer/${demo.customers[0]!.id}/breaches`,
    `  curl -X POST ${auth} ${appUrl}/api/v1/integrations/customer/${demo.customers[0]!.id}/magic-link   (open the url: the customer portal)`,
    "Webhooks:",
    config.webhookAllowPrivateUrls()
      ? "  WEBHOOK_ALLOW_PRIVATE_URLS=true: endpoints on this machine (http://127.0.0.1:8080/...) are accepted (local testing only)."
      : "  Only public https:// endpoints are accepted. To try a receiver on this machine (http://127.0.0.1:8080/...),\n" +
        "  restart with WEBHOOK_ALLOW_PRIVATE_URLS=true (local testing only).",
    `  Receivers in TypeScript, Python and PHP, and a first delivery step by step: ${appUrl}/docs/webhooks#receive-webhooks`,
    `Guides: ${appUrl}/docs/api   API reference: ${appUrl}/docs/reference`,
    "",
  ].join("\n");
}
