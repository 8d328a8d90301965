import { expect, test } from "@playwright/test";
import { partnerHeaders } from "../demo";
import { mailTo } from "../mail";
import { expectAccessible } from "../portal";

test("a recipient unsubscribes through the link of a message, in the customer's language", async ({ page, request }, testInfo) => {
  const domain = `e2e${Date.now().toString(36)}.example`;
  const onboard = await request.post("/api/v1/integrations/customer/onboard", {
    headers: partnerHeaders(),
    data: {
      companyName: "Ljungberg AB",
      contactEmail: `it@${domain}`,
      customerReference: `E2E-${domain}`,
      assetsDomains: [domain],
      price: 10,
      currencyCode: "SEK",
      localeCode: "sv-SE",
    },
  });
  expect(onboard.status()).toBe(200);

  const welcome = await mailTo(`it@${domain}`);
  expect(welcome.subject).toBe("Intrångsbevakningen är nu aktiv för Ljungberg AB");
  const link = welcome.text!.match(/https?:\/\/\S+\/unsubscribe\?token=[\w.-]+/)![0];

  await page.goto(link);
  await expect(page.getByRole("heading", { name: "Avsluta prenumeration" })).toBeVisible();
  await expect(page.getByText(`Sluta skicka mejl om intrångsbevakningen av Ljungberg AB till it@${domain}?`)).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath("unsubscribe-ask.png") });

  await page.getByRole("button", { name: "Avsluta" }).click();
  await expect(page.getByRole("status")).toHaveText(`Klart: it@${domain} får inte längre mejl om intrångsbevakningen av Ljungberg AB.`);
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath("unsubscribe-done.png") });

  // Opening the link again shows that it is done; nothing asks again.
  await page.goto(link);
  await expect(page.getByRole("status")).toBeVisible();
  await expect(page.getByRole("button")).toHaveCount(0);
});

test("an altered unsubscribe link says it is not valid", async ({ page }) => {
  await page.goto("/unsubscribe?token=eyJhIjoxfQ.forged");
  await expect(page.getByRole("alert").filter({ hasText: "This unsubscribe link is not valid." })).toBeVisible();
});
