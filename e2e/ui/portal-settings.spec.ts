import { expect, test } from "@playwright/test";
import { partnerHeaders } from "../demo";
import { createMagicLink, expectAccessible } from "../portal";

test("a customer turns the monthly report off and one recipient's breach alerts, in the portal, in Danish", async ({
  page,
  request,
}, testInfo) => {
  const domain = `settings${Date.now().toString(36)}.example`;
  const onboard = await request.post("/api/v1/integrations/customer/onboard", {
    headers: partnerHeaders(),
    data: {
      companyName: "Hansen ApS",
      contactEmail: `it@${domain}`,
      customerReference: `E2E-${domain}`,
      assetsDomains: [domain],
      alertRecipients: [`it@${domain}`, `security@${domain}`],
      sendMonthlyReport: true,
      price: 0,
      currencyCode: "DKK",
      localeCode: "da-DK",
    },
  });
  expect(onboard.status()).toBe(200);
  const { customerId } = await onboard.json();

  await page.goto(await createMagicLink(request, customerId));
  await expect(page).toHaveURL(/\/portal$/);
  await page.getByRole("navigation", { name: "Portal" }).getByRole("link", { name: "E-mailindstillinger" }).click();
  await expect(page.getByRole("heading", { name: "E-mailindstillinger", level: 1 })).toBeVisible();
  await expect(page.getByLabel("Advarsler om databrud", { exact: true })).toBeChecked();
  await expect(page.getByLabel("Månedsrapport", { exact: true })).toBeChecked();
  await expectAccessible(page);

  await page.getByLabel("Månedsrapport", { exact: true }).uncheck();
  await page.getByLabel(`Advarsler om databrud: security@${domain}`).uncheck();
  await page.getByRole("button", { name: "Gem" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Gemt." })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("portal-settings.png"), fullPage: true });

  await page.reload();
  await expect(page.getByLabel("Månedsrapport", { exact: true })).not.toBeChecked();
  await expect(page.getByLabel(`Advarsler om databrud: security@${domain}`)).not.toBeChecked();
  await expect(page.getByLabel(`Advarsler om databrud: it@${domain}`)).toBeChecked();
  await expect(page.getByLabel(`Månedsrapport: security@${domain}`)).toBeChecked();
});
