import { expect, test, type Page } from "@playwright/test";
import { admin, demo, partnerHeaders, requireAdminCli } from "../demo";
import { mailTo } from "../mail";

/** Signs a staff member in through next-auth's credentials endpoint (the session cookie lands in the page's context). */
async function signInAsStaff(page: Page, email: string, password: string) {
  const { csrfToken } = (await (await page.request.get("/api/auth/csrf")).json()) as { csrfToken: string };
  const response = await page.request.post("/api/auth/callback/staff", { form: { csrfToken, email, password, json: "true" } });
  expect(response.ok()).toBe(true);
}

test("staff see the e-mails of their customers as sent, the HTML in a frame and the text part", async ({ page, request }, testInfo) => {
  requireAdminCli();
  const email = `mail-staff-${Date.now()}@example.com`;
  await admin("create-staff", "--distributor", demo().distributorId, "--email", email, "--password", "correct horse battery staple");

  const domain = `preview${Date.now().toString(36)}.example`;
  const onboard = await request.post("/api/v1/integrations/customer/onboard", {
    headers: partnerHeaders(),
    data: { companyName: "Preview GmbH", contactEmail: `it@${domain}`, customerReference: `E2E-${domain}`, assetsDomains: [domain], price: 0, currencyCode: "EUR" },
  });
  expect(onboard.status()).toBe(200);
  await mailTo(`it@${domain}`);

  await page.goto("/admin/mail");
  await expect(page).toHaveURL(/\/admin\/sign-in\?callbackUrl=%2Fadmin%2Fmail$/);
  await signInAsStaff(page, email, "correct horse battery staple");

  await page.goto("/admin/mail?kind=welcome");
  await expect(page.getByRole("heading", { name: "Mail preview" })).toBeVisible();
  const row = page.getByRole("row").filter({ hasText: `it@${domain}` });
  await expect(row).toContainText("sent");
  await page.screenshot({ path: testInfo.outputPath("mail-list.png"), fullPage: true });

  await row.getByRole("link", { name: "Breach monitoring is now active for Preview GmbH" }).click();
  await expect(page.getByRole("heading", { name: "Breach monitoring is now active for Preview GmbH" })).toBeVisible();
  const frame = page.frameLocator("iframe[title^='HTML part']");
  await expect(frame.getByRole("heading", { name: "Welcome to breach monitoring" })).toBeVisible();
  await expect(page.locator("pre")).toContainText(`* ${domain}`);
  await page.screenshot({ path: testInfo.outputPath("mail-message.png"), fullPage: true });
});
