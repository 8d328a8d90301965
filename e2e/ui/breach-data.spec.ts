import { randomUUID } from "node:crypto";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { demo, partnerHeaders } from "../demo";
import { expectWithinViewport, VIEWPORTS } from "../layout";

/**
 * The admin UI's Breach data page (docs/admin-ui.md, "Breach data"; issue 46 item 2) at 1280 and
 * 390 px in Debian's Chromium, against the service as `npm start` runs it on the embedded
 * database: the demo owner uploads an accounts file for a domain of their own while the service
 * runs, reads the report with the rejected line, and the customer onboarded with that domain gets
 * the finding; a bad file is refused with its reason.
 */

async function onboard(request: APIRequestContext, domain: string): Promise<string> {
  const response = await request.post("/api/v1/integrations/customer/onboard", {
    headers: partnerHeaders(),
    data: {
      companyName: `Own domain ${domain}`,
      contactEmail: `it@${domain}`,
      customerReference: `OWN-${randomUUID().slice(0, 8)}`,
      assetsDomains: [domain],
      price: 0,
      currencyCode: "EUR",
    },
  });
  expect(response.status()).toBe(200);
  return (await response.json()).customerId;
}

async function signIn(page: Page) {
  await page.goto("/admin/sign-in");
  await page.getByLabel("E-mail").fill(demo().staffEmail);
  await page.getByLabel("Password").fill(demo().staffPassword);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();
}

const csv = (text: string) => ({ name: "accounts.csv", mimeType: "text/csv", buffer: Buffer.from(text) });

for (const viewport of VIEWPORTS) {
  test(`an owner imports accounts for their own domain on a ${viewport.name} (${viewport.width} px)`, async ({
    browser,
    request,
  }, testInfo) => {
    const domain = `own-${viewport.name}-${randomUUID().slice(0, 6)}.example`;
    const customerId = await onboard(request, domain);
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    try {
      await signIn(page);
      await page.goto("/admin/breach-data");
      await expect(page.getByRole("heading", { name: "Breach data", level: 1 })).toBeVisible();
      await expectWithinViewport(page);

      const form = page.getByRole("form", { name: "Import breaches" });
      await form.getByLabel("Accounts (CSV)").setInputFiles(csv("address,breach\nceo@example.com,Adobe\n"));
      await form.getByRole("button", { name: "Import" }).click();
      await expect(page.getByRole("alert").filter({ hasText: "accounts.csv" })).toContainText(
        'accounts.csv: The accounts file cannot be imported: line 1: the accounts file must start with the header "email,breach_name"',
      );

      await form.getByLabel("Accounts (CSV)").setInputFiles(csv(`email,breach_name\nceo@${domain},Adobe\nnobody,Adobe\n`));
      await form.getByRole("button", { name: "Import" }).click();
      const report = page.getByRole("region", { name: "Accounts imported" });
      await expect(report).toBeVisible();
      await expect(report).toContainText("Rows read2");
      await expect(report).toContainText("Added to the index1");
      await expect(report).toContainText('Line 3: invalid e-mail address "nobody"');
      await expectWithinViewport(page);
      await page.screenshot({ path: testInfo.outputPath(`breach-data-${viewport.name}.png`), fullPage: true });

      await expect
        .poll(
          async () => {
            const response = await request.get(`/api/v1/integrations/customer/${customerId}/breaches`, { headers: partnerHeaders() });
            return ((await response.json()).breaches as Array<{ breachName: string; emails: string[] }>).map(
              (breach) => `${breach.breachName} ${breach.emails.join(",")}`,
            );
          },
          { timeout: 60_000 },
        )
        .toEqual([`Adobe ceo@${domain}`]);
    } finally {
      await context.close();
    }
  });
}
