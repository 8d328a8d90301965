import { randomUUID } from "node:crypto";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { FakeConnectWise } from "../../test/helpers/psa-fakes";
import { demo, distributorHeaders } from "../demo";
import { expectWithinViewport } from "../layout";
import { mailTo } from "../mail";
import { expectAccessible } from "../portal";

/**
 * A partner's PSA in the admin UI (docs/admin-ui.md, issue 41), against the service as `npm start`
 * runs it and the stateful ConnectWise fake (every request checked against ConnectWise's
 * published description): staff connect it with a wrong key and the test says the PSA refused it
 * (the partner's contact is e-mailed), enter the right key, edit with the secrets left blank (the
 * stored ones are kept, never shown), map a customer to its PSA company, mute one of its
 * mailboxes and end the mute, and disconnect; both pages pass axe and fit a 390 px phone.
 */
const credentials = { companyId: "acme_msp", publicKey: "pub-e2e", privateKey: `priv-${randomUUID()}`, clientId: randomUUID() };

async function createPartner(request: APIRequestContext, name: string, contactEmail: string) {
  const created = await request.post("/api/v1/distributors/partners", {
    headers: distributorHeaders(),
    data: { name, contact_email: contactEmail },
  });
  expect(created.status()).toBe(200);
  const partnerId = (await created.json()).data.uuid as string;
  const key = await request.post(`/api/v1/distributors/partners/${partnerId}/api-keys`, { headers: distributorHeaders(), data: {} });
  expect(key.status()).toBe(200);
  return { partnerId, headers: { "SW-PARTNER-ID": partnerId, "SW-API-KEY": (await key.json()).data.apiKey as string } };
}

async function signIn(page: Page) {
  await page.goto("/admin/sign-in");
  await page.getByLabel("E-mail").fill(demo().staffEmail);
  await page.getByLabel("Password").fill(demo().staffPassword);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();
}

test("staff connect, test, edit and disconnect a partner's PSA, map a customer and mute a mailbox", async ({
  page,
  browser,
  request,
}, testInfo) => {
  const shot = (target: Page, name: string) => target.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });
  const psa = await new FakeConnectWise(credentials).start();
  try {
    const stamp = Date.now().toString(36);
    const contactEmail = `psa-${stamp}@e2e-psa.example`;
    const partner = await createPartner(request, `E2E PSA Partner ${stamp}`, contactEmail);
    const onboard = await request.post("/api/v1/integrations/customer/onboard", {
      headers: partner.headers,
      data: {
        companyName: "Ticketed Ltd",
        contactEmail: `it@${stamp}.example`,
        customerReference: `E2E-PSA-${stamp}`,
        assetsDomains: [`${stamp}.example`],
        assetsEmails: [`ann@${stamp}.example`],
        price: 0,
        currencyCode: "EUR",
      },
    });
    expect(onboard.status()).toBe(200);
    const customerId = (await onboard.json()).customerId as string;

    await signIn(page);
    await page.goto(`/admin/partners/${partner.partnerId}`);
    const section = page.getByRole("region", { name: "PSA" });
    await expect(section).toContainText("No PSA connected");

    // Connect with a wrong private key: the API's checks first (a board id that is no number).
    const form = section.getByRole("form", { name: "Connect a PSA" });
    await form.getByLabel("Site URL").fill(psa.baseUrl);
    await form.getByLabel("Company ID").fill(credentials.companyId);
    await form.getByLabel("Public key").fill(credentials.publicKey);
    await form.getByLabel("Private key").fill("not-the-key");
    await form.getByLabel("Client ID").fill(credentials.clientId);
    await form.getByLabel("Board ID").fill("twelve");
    await form.getByRole("button", { name: "Connect" }).click();
    await expect(form.getByLabel("Board ID")).toHaveAttribute("aria-invalid", "true");
    await expect(form).toContainText("Must be a positive whole number (the PSA's id)");
    await form.getByLabel("Board ID").fill(String(psa.boardId));
    await form.getByRole("button", { name: "Connect" }).click();
    await expect(section.getByRole("status")).toHaveText("ConnectWise PSA connection saved. Test it to check the credentials.");
    await expect(section).toContainText("working");

    // The test says what failed and why; the connection is failing and the partner's contact is told.
    await section.getByRole("button", { name: "Test the connection" }).click();
    await expect(section.getByRole("alert").filter({ hasText: "Test failed" })).toContainText("ConnectWise answered 401");
    await expect(section.getByRole("alert").filter({ hasText: "Failing since" })).toContainText("the PSA refused the credentials");
    const warning = await mailTo(contactEmail, { subject: "Your PSA refused our credentials: ConnectWise PSA" });
    expect(warning.text).toContain("ConnectWise answered 401");
    expect(warning.text).not.toContain(credentials.privateKey);

    // The right key: saved, the secret fields empty again, never showing what is stored.
    const settings = section.getByRole("form", { name: "PSA connection settings" });
    await expect(settings.getByLabel("Private key")).toHaveValue("");
    await expect(settings.getByLabel("Board ID")).toHaveValue(String(psa.boardId));
    await settings.getByLabel("Public key").fill(credentials.publicKey);
    await settings.getByLabel("Private key").fill(credentials.privateKey);
    await settings.getByRole("button", { name: "Save the connection" }).click();
    await expect(section.getByRole("status")).toContainText("connection saved");
    await expect(settings.getByLabel("Private key")).toHaveValue("");
    await section.getByRole("button", { name: "Test the connection" }).click();
    await expect(section.getByRole("status")).toHaveText("Test passed: the PSA accepted the credentials.");
    await expect(section).not.toContainText("Failing since");

    // An edit with the secrets left blank keeps them: the test still passes.
    await settings.getByLabel("One ticket per mailbox and breach").check();
    await settings.getByLabel("Priority ID for high findings").fill("4");
    await settings.getByRole("button", { name: "Save the connection" }).click();
    await expect(section.getByRole("status")).toContainText("connection saved");
    await expect(section).toContainText("one per mailbox and breach");
    await expect(settings.getByLabel("One ticket per mailbox and breach")).toBeChecked();
    await expect(settings.getByLabel("Priority ID for high findings")).toHaveValue("4");
    await section.getByRole("button", { name: "Test the connection" }).click();
    await expect(section.getByRole("status")).toHaveText("Test passed: the PSA accepted the credentials.");
    expect(await page.content()).not.toContain(credentials.privateKey);
    expect(await page.content()).not.toContain(credentials.publicKey);
    await expectAccessible(page);
    await shot(page, "partner-psa");

    // The customer's PSA company, and a mute of one of its mailboxes.
    await page.goto(`/admin/customers/${customerId}`);
    const company = page.getByRole("region", { name: "PSA company" });
    await expect(company).toContainText("Not mapped");
    await company.getByLabel("ConnectWise company ID").fill("250");
    await company.getByRole("button", { name: "Map to this company" }).click();
    await expect(company.getByRole("status")).toHaveText("Mapped.");
    await expect(company).toContainText("Findings become tickets in ConnectWise PSA for company 250.");

    const mutes = page.getByRole("region", { name: "Muted notices" });
    await expect(mutes).toContainText("Nothing is muted.");
    const muteForm = mutes.getByRole("form", { name: "Mute notices" });
    await muteForm.getByRole("button", { name: "Mute" }).click();
    await expect(muteForm.getByRole("alert")).toHaveText("At least one of email and breachId must be provided");
    await muteForm.getByLabel("Mailbox").fill(`ann@${stamp}.example`);
    await muteForm.getByRole("button", { name: "Mute" }).click();
    await expect(mutes.getByRole("status")).toHaveText(`Muted ann@${stamp}.example in every breach.`);
    const row = mutes.getByRole("row").filter({ hasText: `ann@${stamp}.example` });
    await expect(row).toContainText("for good");
    await expect(row).toContainText("staff");
    await expect(page.getByRole("region", { name: "Audit" })).toContainText("Muted notices");
    await expect(page.getByRole("region", { name: "Audit" })).toContainText("Mapped to a PSA company");
    await expectAccessible(page);
    await shot(page, "customer-psa-mutes");

    // On a phone: both pages within 390 px, and accessible.
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
    try {
      const phonePage = await phone.newPage();
      await signIn(phonePage);
      await phonePage.goto(`/admin/customers/${customerId}`);
      await expect(phonePage.getByRole("region", { name: "Muted notices" }).getByRole("row")).toHaveCount(2);
      await expectWithinViewport(phonePage);
      await expectAccessible(phonePage);
      await phonePage.goto(`/admin/partners/${partner.partnerId}`);
      await expect(phonePage.getByRole("form", { name: "PSA connection settings" })).toBeVisible();
      await expectWithinViewport(phonePage);
      await expectAccessible(phonePage);
      await shot(phonePage, "partner-psa-phone");
    } finally {
      await phone.close();
    }

    // End the mute; then disconnect (confirmed).
    await row.getByRole("button", { name: /End mute/ }).click();
    await expect(mutes.getByRole("status")).toHaveText(`Mute of ann@${stamp}.example in every breach ended.`);
    await expect(mutes).toContainText("Nothing is muted.");

    await page.goto(`/admin/partners/${partner.partnerId}`);
    page.once("dialog", (dialog) => void dialog.accept());
    await section.getByRole("button", { name: "Disconnect" }).click();
    await expect(section.getByRole("status")).toHaveText("PSA disconnected.");
    await expect(section).toContainText("No PSA connected");
    expect(psa.violations).toEqual([]);
  } finally {
    await psa.close();
  }
});
