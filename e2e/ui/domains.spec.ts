import { randomUUID } from "node:crypto";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { demo, distributorHeaders, partnerHeaders } from "../demo";
import { mailTo } from "../mail";
import { createMagicLink, expectAccessible } from "../portal";

/**
 * Domain ownership (docs/domains.md) in Debian's Chromium against the service as `npm start` runs
 * it: staff see the domains partners' customers added (flagged when customers of two partners
 * monitor one) and attest one with a required note, which the partner API and the portal show;
 * a customer asks for an e-mailed link in the portal and the link verifies the domain.
 */

async function onboard(request: APIRequestContext, domain: string, headers: Record<string, string> = partnerHeaders()): Promise<string> {
  const response = await request.post("/api/v1/integrations/customer/onboard", {
    headers,
    data: {
      companyName: `Domain test ${domain}`,
      contactEmail: `it@${domain}`,
      customerReference: `DOM-${randomUUID().slice(0, 8)}`,
      assetsDomains: [domain],
      price: 10,
      currencyCode: "EUR",
    },
  });
  expect(response.status()).toBe(200);
  return (await response.json()).customerId;
}

async function partnerDomains(request: APIRequestContext, customerId: string) {
  const response = await request.get(`/api/v1/integrations/customer/${customerId}/domains`, { headers: partnerHeaders() });
  expect(response.status()).toBe(200);
  return (await response.json()).data;
}

/** A second partner of the demo distributor with its own key, over the distributor API. */
async function secondPartnerHeaders(request: APIRequestContext): Promise<Record<string, string>> {
  const created = await request.post("/api/v1/distributors/partners", { headers: distributorHeaders(), data: { name: "Second partner" } });
  expect(created.status()).toBe(200);
  const partnerId: string = (await created.json()).data.uuid;
  const key = await request.post(`/api/v1/distributors/partners/${partnerId}/api-keys`, { headers: distributorHeaders() });
  expect(key.status()).toBe(200);
  return { "SW-PARTNER-ID": partnerId, "SW-API-KEY": (await key.json()).data.apiKey };
}

async function signIn(page: Page) {
  await page.goto("/admin/sign-in");
  await page.getByLabel("E-mail").fill(demo().staffEmail);
  await page.getByLabel("Password").fill(demo().staffPassword);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();
}

test("staff attest a customer's domain with a required note; the partner API and the portal show it", async ({
  page,
  request,
}, testInfo) => {
  const domain = `attest-${randomUUID().slice(0, 8)}.example`;
  const customerId = await onboard(request, domain);
  await onboard(request, domain, await secondPartnerHeaders(request));

  await signIn(page);
  await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Domains", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Domains", level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Domain policy: trusted" })).toBeVisible();
  const demoPartner = page.getByRole("region", { name: "Partner Demo Partner" });
  const row = demoPartner.getByRole("row").filter({ hasText: domain });
  await expect(row).toContainText("unverified");
  await expect(row).toContainText("customers of 2 partners");
  await page.screenshot({ path: testInfo.outputPath("domains-before.png"), fullPage: true });

  await row.getByRole("button", { name: `Attest ${domain}` }).click();
  await row.getByRole("button", { name: `Verify ${domain}` }).click();
  await expect(row.locator(".form-error")).toContainText("A note is required");
  await row.getByLabel("Note (required)").fill("Customer under contract 2026-114");
  await row.getByRole("button", { name: `Verify ${domain}` }).click();
  await expect(row).toContainText("verified");
  await expect(row).toContainText("by staff: Demo admin");
  await expect(row).toContainText("Customer under contract 2026-114");
  await page.screenshot({ path: testInfo.outputPath("domains-attested.png"), fullPage: true });

  const [entry] = await partnerDomains(request, customerId);
  expect(entry).toMatchObject({ domain, status: "verified", method: "staff", verifiedAt: expect.any(String) });

  await page.goto(await createMagicLink(request, customerId));
  // This browser holds the staff session, so the link asks before it signs in.
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/portal$/);
  await page.goto("/portal/domains");
  await expect(page.getByRole("heading", { name: `${domain} · Verified` })).toBeVisible();
  await expect(page.getByText(/^Verified by Demo admin on /)).toBeVisible();
  await expectAccessible(page);
});

test("a customer has a link e-mailed to security@ its domain from the portal, and following it verifies the domain", async ({
  page,
  request,
}, testInfo) => {
  const domain = `mail-${randomUUID().slice(0, 8)}.example`;
  const customerId = await onboard(request, domain);
  const [entry] = await partnerDomains(request, customerId);

  await page.goto(await createMagicLink(request, customerId));
  await expect(page).toHaveURL(/\/portal$/);
  await page.goto("/portal/domains");
  await expect(page.getByRole("heading", { name: `${domain} · Not verified yet` })).toBeVisible();
  await expect(page.getByText(entry.dnsRecord.value)).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath("portal-domains.png"), fullPage: true });

  await page.getByRole("button", { name: "Send the link" }).click();
  await expect(page.getByRole("status")).toContainText(`We sent a link to security@${domain}`);
  const mail = await mailTo(`security@${domain}`);
  const link = /https?:\/\/\S+\/verify-domain\?token=[A-Za-z0-9_-]{43}/.exec(mail.text ?? "")![0];

  await page.goto(link);
  await expect(
    page.getByText(
      `Demo Partner, a partner of Demo Distributor, asks that its customer "Domain test ${domain}" may see which addresses at ${domain} appear in data breaches. Confirm?`,
    ),
  ).toBeVisible();
  expect((await partnerDomains(request, customerId))[0].status).toBe("unverified");
  await page.getByRole("button", { name: "Confirm" }).click();
  await expect(page.getByRole("status")).toHaveText(`Done: ${domain} is verified for "Domain test ${domain}".`);
  expect((await partnerDomains(request, customerId))[0]).toMatchObject({ status: "verified", method: "email" });

  await page.goto(link);
  await expect(page.getByRole("status")).toHaveText(`Done: ${domain} is verified for "Domain test ${domain}".`);
  await page.goto("/portal/domains");
  await expect(page.getByText(/^Verified by an e-mail link on /)).toBeVisible();
});
