import { expect, test } from "@playwright/test";
import { expectWithinViewport, VIEWPORTS } from "../layout";
import { createMagicLink, DEMO_ACTIVE, demoCustomerId, expectAccessible } from "../portal";

/**
 * The portal's Domains page (issue 46 item 6) at 1280 and 390 px: a customer of a `trusted`
 * distributor (the demo's) is told its addresses are listed, not to "verify to see which"; each
 * way to verify has its own button under it; the mailbox select is styled; the TXT value wraps
 * and copies. And /portal without a session is the sign-in form.
 */
for (const viewport of VIEWPORTS) {
  test(`the Domains page on a ${viewport.name} (${viewport.width} px)`, async ({ browser, request }, testInfo) => {
    const context = await browser.newContext({ viewport, permissions: ["clipboard-read", "clipboard-write"] });
    const page = await context.newPage();
    try {
      await page.goto(await createMagicLink(request, await demoCustomerId(request, DEMO_ACTIVE)));
      await expect(page).toHaveURL(/\/portal$/);
      await page.goto("/portal/domains");
      const card = page.getByRole("region", { name: "northwind.example · Not verified yet" });
      await expect(card).toBeVisible();
      // The demo distributor is trusted: the Breaches page lists these addresses already.
      await expect(card).toContainText("They are listed under Breaches.");
      await expect(page.getByText("Verify the domain to see which")).toHaveCount(0);
      await expect(page.getByText(/^What we found at your domains is listed on the other pages/)).toBeVisible();

      // Each option's button comes after its own text, and before the next option.
      const top = async (locator: ReturnType<typeof page.locator>) => (await locator.boundingBox())!.y;
      const dnsHeading = card.getByRole("heading", { name: "Option 1: add a DNS record" });
      const emailHeading = card.getByRole("heading", { name: "Option 2: get a link by e-mail" });
      const check = card.getByRole("button", { name: "Check now" });
      const send = card.getByRole("button", { name: "Send the link" });
      const mailbox = card.getByLabel("Send to");
      expect(await top(check)).toBeGreaterThan(await top(dnsHeading));
      expect(await top(check)).toBeLessThan(await top(emailHeading));
      expect(await top(mailbox)).toBeGreaterThan(await top(emailHeading));
      expect(await top(send)).toBeGreaterThan(await top(mailbox));

      // A styled select: the portal's border and a touch-sized height, not the browser's default.
      const select = await mailbox.evaluate((element) => {
        const style = getComputedStyle(element);
        return { height: element.getBoundingClientRect().height, radius: style.borderTopLeftRadius, font: style.fontSize };
      });
      expect(select.height).toBeGreaterThanOrEqual(44);
      expect(select.radius).not.toBe("0px");
      expect(select.font).toBe(await page.locator("body").evaluate((body) => getComputedStyle(body).fontSize));

      // The TXT value wraps inside the card and copies.
      const value = card.locator("code").filter({ hasText: "exposure-monitor-verification=" });
      const valueText = (await value.textContent())!;
      expect(valueText).toMatch(/^exposure-monitor-verification=[0-9a-f]{32}$/);
      const cardBox = (await card.boundingBox())!;
      const valueBox = (await value.boundingBox())!;
      expect(valueBox.x + valueBox.width).toBeLessThanOrEqual(cardBox.x + cardBox.width);
      await card.getByRole("button", { name: "Copy" }).click();
      await expect(card.getByText("Copied")).toBeVisible();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(valueText);

      await expectWithinViewport(page);
      await expectAccessible(page);
      await page.screenshot({ path: testInfo.outputPath(`portal-domains-${viewport.name}.png`), fullPage: true });
    } finally {
      await context.close();
    }
  });

  test(`/portal without a session shows the sign-in form on a ${viewport.name} (${viewport.width} px)`, async ({ browser }, testInfo) => {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    try {
      await page.goto("/portal");
      await expect(page).toHaveURL(/\/portal\/sign-in$/);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expect(page.getByLabel("E-mail address")).toBeVisible();
      await expectWithinViewport(page);
      await expectAccessible(page);
      await page.screenshot({ path: testInfo.outputPath(`portal-no-session-${viewport.name}.png`), fullPage: true });
    } finally {
      await context.close();
    }
  });
}
