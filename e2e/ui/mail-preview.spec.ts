import { expect, test } from "@playwright/test";
import { demo, partnerHeaders } from "../demo";
import { mailTo } from "../mail";
import { expectAccessible } from "../portal";

test("staff see the e-mails of their customers as sent: the list, the HTML in a frame and the text part", async ({
  page,
  request,
}, testInfo) => {
  const domain = `preview${Date.now().toString(36)}.example`;
  const onboard = await request.post("/api/v1/integrations/customer/onboard", {
    headers: partnerHeaders(),
    data: {
      companyName: "Preview GmbH",
      contactEmail: `it@${domain}`,
      customerReference: `E2E-${domain}`,
      assetsDomains: [domain],
      price: 0,
      currencyCode: "EUR",
    },
  });
  expect(onboard.status()).toBe(200);
  await mailTo(`it@${domain}`);

  await page.goto("/admin/mail");
  await expect(page).toHaveURL(/\/admin\/sign-in$/);
  await page.getByLabel("E-mail").fill(demo().staffEmail);
  await page.getByLabel("Password").fill(demo().staffPassword);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();

  await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Mail previews", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Mail previews", level: 1 })).toBeVisible();
  await page.getByRole("navigation", { name: "Filter by kind" }).getByRole("link", { name: "Welcome" }).click();
  await expect(page).toHaveURL(/\/admin\/mail\?kind=welcome$/);
  const row = page.getByRole("row").filter({ hasText: `it@${domain}` });
  await expect(row).toContainText("sent");
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath("mail-list.png"), fullPage: true });

  await row.getByRole("link", { name: "Breach monitoring is now active for Preview GmbH" }).click();
  await expect(page.getByRole("heading", { name: "Breach monitoring is now active for Preview GmbH", level: 1 })).toBeVisible();
  const frame = page.frameLocator("iframe[title^='HTML part']");
  await expect(frame.getByRole("heading", { name: "Welcome to breach monitoring" })).toBeVisible();
  await expect(page.locator("pre")).toContainText(`* ${domain}`);
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath("mail-message.png"), fullPage: true });

  // Another distributor's message, or none, is the admin UI's not-found page.
  await page.goto("/admin/mail/00000000-0000-4000-8000-000000000000");
  await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
});
