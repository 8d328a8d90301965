import { expect, test, type Browser } from "@playwright/test";
import { demo, distributorHeaders } from "../demo";
import { expectWithinViewport, VIEWPORTS } from "../layout";
import { expectAccessible } from "../portal";

/**
 * The admin UI's pages (issue 46 item 7, issue 47's DataTable) at 1280 and 390 px: customer search
 * across partners, the billing-code form laid out as the others, the webhook endpoint page within
 * the screen, the current tab in view in the phone's tab strip, sentence-case filter chips, an
 * endpoint whose only (test) attempt failed reads "never succeeded", the signature scheme in the
 * add form, "Generate" without a secret, API keys listed by id.
 */
async function signedIn(browser: Browser, viewport: { width: number; height: number }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await page.goto("/admin/sign-in");
  await page.getByLabel("E-mail").fill(demo().staffEmail);
  await page.getByLabel("Password").fill(demo().staffPassword);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();
  return { context, page };
}

for (const viewport of VIEWPORTS) {
  test(`admin pages on a ${viewport.name} (${viewport.width} px)`, async ({ browser, request }, testInfo) => {
    const { context, page } = await signedIn(browser, viewport);
    let endpointId: string | undefined;
    const shot = (name: string) => page.screenshot({ path: testInfo.outputPath(`${name}-${viewport.name}.png`), fullPage: true });
    try {
      const nav = page.getByRole("navigation", { name: "Admin" });
      const inStrip = async (entry: string) => {
        const link = nav.getByRole("link", { name: entry, exact: true });
        await expect(link).toHaveAttribute("aria-current", "page");
        // the current tab is within the strip's visible part (on a phone the strip scrolls sideways)
        await expect
          .poll(async () => {
            const [navBox, linkBox] = [(await nav.boundingBox())!, (await link.boundingBox())!];
            return linkBox.x >= navBox.x - 1 && linkBox.x + linkBox.width <= navBox.x + navBox.width + 1;
          })
          .toBe(true);
      };

      // Customers of every partner, searched.
      await nav.getByRole("link", { name: "Customers", exact: true }).click();
      await expect(page.getByRole("heading", { name: "Customers", level: 1 })).toBeVisible();
      await page.getByLabel("Search customers").fill("NORTHWIND");
      await page.getByRole("button", { name: "Search" }).click();
      await expect(page.getByRole("status")).toHaveText("1 customer matching “NORTHWIND”.");
      await expect(page.getByRole("table", { name: "Customers" }).getByRole("row").nth(1)).toContainText("Northwind Traders");
      await expect(page.getByRole("table", { name: "Customers" })).toContainText("Demo Partner");
      await expectWithinViewport(page);
      await expectAccessible(page);
      await shot("customers");

      // The billing-code form: its fields in the grid of the other forms, the button below them.
      await page.goto("/admin/billing-codes");
      await inStrip("Billing codes");
      const form = page.getByRole("form", { name: "New billing code" });
      const [formBox, codeBox, buttonBox, currencyBox] = await Promise.all([
        form.boundingBox(),
        form.getByRole("textbox", { name: "Code" }).boundingBox(),
        form.getByRole("button", { name: "Add billing code" }).boundingBox(),
        form.getByRole("textbox", { name: "Currency" }).boundingBox(),
      ]);
      expect(codeBox!.x - formBox!.x).toBeLessThan(40);
      expect(buttonBox!.x - formBox!.x).toBeLessThan(40);
      expect(buttonBox!.y).toBeGreaterThan(currencyBox!.y + currencyBox!.height);
      await expectWithinViewport(page);
      await expectAccessible(page);
      await shot("billing-codes");

      // A distributor endpoint whose only attempt, a test, failed: never succeeded, not healthy.
      const url = `http://127.0.0.1:9/never-answers/${viewport.name}/${Date.now()}`;
      const created = await request.post("/api/v1/distributors/webhooks", {
        headers: distributorHeaders(),
        data: { url, eventTypes: ["customer.created"] },
      });
      expect(created.status()).toBe(200);
      endpointId = (await created.json()).webhook.id;
      const sent = await request.post(`/api/v1/distributors/webhooks/${endpointId!}/test`, { headers: distributorHeaders(), data: {} });
      expect(sent.status()).toBe(200);
      await page.goto(`/admin/webhooks/${endpointId!}`);
      await inStrip("Webhooks");
      await expect(async () => {
        await page.reload();
        await expect(page.getByRole("row").filter({ hasText: "customer.created" })).toContainText("failed", { timeout: 1_000 });
      }).toPass();
      await expect(page.locator('dl[aria-label="Health"] dd').first()).toHaveText("never succeeded");
      await expect(page.getByText("healthy", { exact: true })).toHaveCount(0);
      await expect(page.getByLabel("Signature scheme")).toHaveValue("x-signature");
      // Filter chips in sentence case, as everywhere else.
      const chips = page.getByRole("navigation", { name: "Filter deliveries by status" }).getByRole("link");
      await expect(chips).toHaveText(["All", "Pending", "Delivering", "Delivered", "Failed"]);
      await expectWithinViewport(page);
      await expectAccessible(page);
      await shot("webhook-endpoint");

      // The webhooks page: the add form offers the signature scheme; the endpoint reads never succeeded there too.
      await page.goto("/admin/webhooks");
      await expect(page.getByRole("row").filter({ hasText: url })).toContainText("never succeeded");
      const addForm = page.getByRole("form", { name: "New endpoint" });
      await expect(addForm.getByLabel("Signature scheme").getByRole("option")).toHaveText([
        "X-Signature (the receiver signs its answer)",
        "Standard Webhooks (any 2xx answer is success)",
      ]);
      await expect(page.getByRole("navigation", { name: "Filter partners' endpoints by health" }).getByRole("link")).toHaveText([
        "All",
        "Healthy",
        "Never succeeded",
        "Failing",
        "Disabled",
      ]);
      await expectWithinViewport(page);
      await shot("webhooks");

      // API keys are listed by their id, never by the start of the key.
      await page.goto(`/admin/partners/${demo().partnerId}`);
      await inStrip("Partners");
      const keys = page.getByRole("table", { name: /^API keys of / });
      await expect(keys).not.toContainText(demo().partnerKey.slice(0, 12));
      await expect(keys.getByRole("rowheader").first()).toHaveText(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      await expectWithinViewport(page);
      await expectAccessible(page);

      // The last tab of the strip, in view when its page is open.
      await page.goto("/admin/account");
      await inStrip("Account");
      await expectWithinViewport(page);
    } finally {
      // Other suites' customers would send it events that fail for minutes.
      if (endpointId) await request.delete(`/api/v1/distributors/webhooks/${endpointId}`, { headers: distributorHeaders() });
      await context.close();
    }
  });
}

test("a distributor without a signing secret is offered Generate, not Cycle or Replace all", async ({ browser }) => {
  const { context, page } = await signedIn(browser, { width: 390, height: 844 });
  try {
    await page.goto("/admin/webhooks");
    const secrets = page.getByRole("region", { name: "Signing secrets", exact: true });
    // Deactivate every secret the demo distributor has (its endpoints gave it one), then generate one.
    for (;;) {
      const deactivate = secrets.getByRole("button", { name: /^Deactivate/ });
      if ((await deactivate.count()) === 0) break;
      page.once("dialog", (dialog) => void dialog.accept());
      const before = await deactivate.count();
      await deactivate.first().click();
      await expect(deactivate).toHaveCount(before - 1);
    }
    await expect(secrets.getByRole("button", { name: "Cycle secret" })).toHaveCount(0);
    await expect(secrets.getByRole("button", { name: "Replace all secrets" })).toHaveCount(0);
    await secrets.getByRole("button", { name: "Generate a signing secret" }).click();
    await expect(page.getByRole("region", { name: "New signing secret" }).getByTestId("one-time-secret")).toHaveText(/^[0-9a-f-]{36}$/);
    await expect(secrets.getByRole("button", { name: "Cycle secret" })).toBeVisible();
    await expectWithinViewport(page);
  } finally {
    await context.close();
  }
});
