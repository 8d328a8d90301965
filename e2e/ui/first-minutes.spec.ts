import { expect, test, type Browser, type Page, type TestInfo } from "@playwright/test";
import { startReceiver } from "../../test/helpers/webhook-receiver";
import { demo, partnerHeaders } from "../demo";
import { mailTo } from "../mail";
import { createMagicLink, DEMO_ACTIVE, demoCustomerId, expectAccessible, partnerBreaches } from "../portal";

/**
 * Issue 27, the first ten minutes of customers and distributor staff, in Chromium at 1280 px and
 * at 390 px: portal sign-in by e-mail, the breaches page's filters and pages, the overview, the
 * not-found pages, the admin customer page with its audited sign-in link, billing codes, endpoint
 * health, and no page wider than a phone.
 */

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

async function snap(page: Page, testInfo: TestInfo, name: string) {
  await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });
}

/** The document is no wider than the viewport: nothing scrolls sideways. */
async function expectNoSidewaysScroll(page: Page) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, `${page.url()} is ${scrollWidth} px wide at ${innerWidth} px`).toBeLessThanOrEqual(innerWidth);
}

async function adminSignIn(page: Page) {
  await page.goto("/admin/sign-in");
  await page.getByLabel("E-mail").fill(demo().staffEmail);
  await page.getByLabel("Password").fill(demo().staffPassword);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();
}

async function portalAs(browser: Browser, url: string, viewport = DESKTOP) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await page.goto(url);
  await expect(page).toHaveURL(/\/portal$/);
  return { context, page };
}

test("a customer signs in with only an e-mail address: the same answer for any address, a link in the customer's e-mail", async ({
  page,
}, testInfo) => {
  for (const viewport of [DESKTOP, PHONE]) {
    await page.setViewportSize(viewport);
    await page.goto("/portal/sign-in");
    await expect(page.getByRole("heading", { level: 1, name: "Sign in to the portal" })).toBeVisible();
    await expectNoSidewaysScroll(page);
    await expectAccessible(page);
    await snap(page, testInfo, `sign-in-${viewport.width}`);
  }
  await page.setViewportSize(DESKTOP);

  // An unknown address and a known one get the same page.
  const sent = "If this address has access to a portal, a sign-in link is on its way.";
  await page.getByLabel("E-mail address").fill("nobody@unknown.example");
  await page.getByRole("button", { name: "E-mail me a sign-in link" }).click();
  await expect(page).toHaveURL(/\/portal\/sign-in\?status=sent/);
  await expect(page.getByRole("status")).toContainText(sent);
  await page.getByLabel("E-mail address").fill("IT@contoso.example");
  await page.getByRole("button", { name: "E-mail me a sign-in link" }).click();
  await expect(page.getByRole("status")).toContainText(sent);
  await snap(page, testInfo, "sign-in-sent");

  const mail = await mailTo("it@contoso.example", { subject: "Your sign-in link for Contoso" });
  const link = mail.text?.match(/https?:\/\/\S+\/auth\/confirm\?token_hash=[A-Za-z0-9_-]{43}&type=magiclink/)?.[0];
  expect(link).toBeDefined();
  const path = new URL(link!).pathname + new URL(link!).search;
  await page.goto(path);
  await expect(page).toHaveURL(/\/portal$/);
  await expect(page.getByText("Contoso", { exact: true })).toBeVisible();

  // A malformed address is said at the field.
  await page.goto("/portal/sign-in");
  await page.getByLabel("E-mail address").fill("not an address");
  await page.getByRole("button", { name: "E-mail me a sign-in link" }).click();
  await expect(page.locator("#sign-in-error")).toHaveText("Enter a valid e-mail address, like name@example.com.");
  await expect(page.getByLabel("E-mail address")).toHaveAttribute("aria-invalid", "true");

  // The expired-link page offers it (to someone not signed in).
  await page.context().clearCookies();
  await page.goto("/auth/error?reason=expired&lang=en-GB");
  await page.getByRole("link", { name: "Get a sign-in link" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Sign in to the portal" })).toBeVisible();
});

test("the breaches page filters, searches and pages; the overview explains the score; the phone header is short", async ({
  browser,
  request,
}, testInfo) => {
  const customerId = await demoCustomerId(request, DEMO_ACTIVE);
  const all: Array<{ id: string; title: string; resolved: boolean; emails: string[] }> = (await partnerBreaches(request, customerId))
    .breaches;
  expect(all.length).toBeGreaterThan(1);
  const fixed = all[0]!;
  await request.post("/api/v1/integrations/breach/status", { headers: partnerHeaders(), data: { breachId: fixed.id, resolved: true } });
  try {
    const { context, page } = await portalAs(browser, await createMagicLink(request, customerId));

    // Overview: the score in words, the chart as wide as its card, whole-number ticks.
    await expect(page.locator("figcaption")).toContainText(/not fixed|None of your monitored addresses/);
    await expect(page.getByText(/ of 97/)).toHaveCount(0);
    const { chart, card, ticks } = await page.evaluate(() => {
      const svg = document.querySelector("section[aria-labelledby='timeline-title'] svg")!;
      const section = svg.closest("section")!;
      const style = getComputedStyle(section);
      return {
        chart: svg.getBoundingClientRect().width,
        card: section.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight),
        ticks: [...svg.querySelectorAll("text[text-anchor='end']")].map((text) => text.textContent ?? ""),
      };
    });
    expect(Math.abs(chart - card)).toBeLessThanOrEqual(2);
    expect(ticks.length).toBeGreaterThan(1);
    expect(ticks.every((tick) => /^\d+$/.test(tick))).toBe(true);
    expect(ticks[0]).toBe("0");
    await snap(page, testInfo, "overview-desktop");

    // Filters: not fixed / fixed / all, search by address, pages.
    await page.goto("/portal/breaches");
    await page.getByLabel("Show").selectOption("fixed");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(/filter=fixed/);
    await expect(page.getByText("1–1 of 1")).toBeVisible();
    await expect(page.getByRole("link", { name: fixed.title, exact: true })).toBeVisible();
    await page.getByLabel("Show").selectOption("open");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page.getByText(new RegExp(`of ${all.length - 1}$`))).toBeVisible();
    await expect(page.getByRole("link", { name: fixed.title, exact: true })).toHaveCount(0);

    const address = fixed.emails[0]!;
    const withAddress = all.filter((breach) => breach.emails.includes(address));
    await page.getByLabel("Show").selectOption("all");
    await page.getByLabel("Search by address").fill(address.toUpperCase());
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page.getByText(new RegExp(`–${Math.min(10, withAddress.length)} of ${withAddress.length}\\b`))).toBeVisible();
    await page.getByLabel("Sort by").selectOption("exposed");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(/sort=exposed/);
    await page.getByRole("link", { name: "Clear the search" }).click();
    await expect(page).not.toHaveURL(/q=/);
    if (all.length > 10) {
      await page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Next" }).click();
      await expect(page).toHaveURL(/page=2/);
      await expect(page.getByText(`11–${Math.min(20, all.length)} of ${all.length}`)).toBeVisible();
    }
    await snap(page, testInfo, "breaches-filtered");

    // On a phone: one short header row, the navigation behind Menu, ten breaches to a page.
    await page.setViewportSize(PHONE);
    await page.goto("/portal/breaches");
    const header = await page.locator("header").boundingBox();
    expect(header!.height).toBeLessThanOrEqual(120);
    const navigation = page.getByRole("navigation", { name: "Portal" });
    await expect(navigation).toBeHidden();
    await page.getByRole("button", { name: "Menu" }).click();
    await expect(page.getByRole("button", { name: "Menu" })).toHaveAttribute("aria-expanded", "true");
    await expect(navigation).toBeVisible();
    await snap(page, testInfo, "menu-phone");
    await navigation.getByRole("link", { name: "Overview" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
    await expect(navigation).toBeHidden();
    expect(
      await page
        .locator("li")
        .filter({ has: page.locator("h2") })
        .count(),
    ).toBeLessThanOrEqual(10);
    await expectNoSidewaysScroll(page);
    await expectAccessible(page);
    await snap(page, testInfo, "overview-phone");
    await context.close();
  } finally {
    await request.post("/api/v1/integrations/breach/status", { headers: partnerHeaders(), data: { breachId: fixed.id, resolved: false } });
  }
});

test("a wrong address shows the app's own not-found page with a way back (portal, admin, anywhere)", async ({ browser, page, request }) => {
  // Anywhere: one title, the ways on.
  const root = await page.goto("/no-such-page");
  expect(root?.status()).toBe(404);
  expect((await root!.text()).match(/<title>/g)).toHaveLength(1);
  await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Home" })).toBeVisible();

  // The portal, signed in: its layout and navigation.
  const { context, page: portal } = await portalAs(browser, await createMagicLink(request, await demoCustomerId(request, DEMO_ACTIVE)));
  for (const viewport of [DESKTOP, PHONE]) {
    await portal.setViewportSize(viewport);
    const missing = await portal.goto("/portal/no-such-page/here");
    expect(missing?.status()).toBe(404);
    await expect(portal.getByRole("heading", { level: 1, name: "This page does not exist" })).toBeVisible();
    await expect(portal.getByRole("banner")).toContainText("Northwind Traders");
    await expect(portal.getByRole("link", { name: "Back to the overview" })).toBeVisible();
    await expectNoSidewaysScroll(portal);
  }
  await portal.getByRole("link", { name: "Back to the overview" }).click();
  await expect(portal.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
  await context.close();

  // The admin UI: its layout and navigation.
  await adminSignIn(page);
  const missing = await page.goto("/admin/no-such-page");
  expect(missing?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Not found" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Admin" })).toBeVisible();
});

test("staff open a customer, hand out an audited sign-in link; billing codes are edited and retired; a failing endpoint says so", async ({
  page,
  browser,
  request,
}, testInfo) => {
  const customerId = await demoCustomerId(request, DEMO_ACTIVE);
  await adminSignIn(page);

  // The customer page, from the partner's customer list.
  await page.goto(`/admin/partners/${demo().partnerId}/customers`);
  await page.getByRole("link", { name: "Northwind Traders" }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/customers/${customerId}$`));
  await expect(page.getByRole("heading", { level: 1, name: "Northwind Traders" })).toBeVisible();
  for (const section of ["Monitored assets", "Breaches", "Events sent", "E-mails sent", "Audit"]) {
    await expect(page.getByRole("heading", { level: 2, name: section, exact: true })).toBeVisible();
  }
  await expect(page.getByRole("columnheader", { name: "Verification" })).toBeVisible();
  await page.getByRole("button", { name: "Create a sign-in link" }).click();
  const url = await page.getByTestId("one-time-secret").textContent();
  expect(url).toMatch(/\/auth\/confirm\?token_hash=[A-Za-z0-9_-]{43}&type=magiclink$/);
  await page.reload();
  await expect(page.getByRole("listitem").filter({ hasText: `Created a portal sign-in link, by ${demo().staffEmail}` })).toHaveCount(1);
  await expectAccessible(page);
  await snap(page, testInfo, "customer-page");
  const { context } = await portalAs(browser, new URL(url!).pathname + new URL(url!).search);
  await context.close();

  // Billing codes: add, edit, retire, and a code in use is not deleted.
  await page.goto("/admin/billing-codes");
  const code = `FM-${Date.now().toString(36).toUpperCase()}`;
  await page.getByRole("textbox", { name: "Code", exact: true }).fill(code);
  await page.getByRole("textbox", { name: "Price", exact: true }).fill("4");
  await page.getByRole("textbox", { name: "Currency", exact: true }).fill("sek");
  await page.getByRole("button", { name: "Add billing code" }).click();
  const row = page.locator(`tr[data-billing-code="${code}"]`);
  await expect(row).toContainText("4.00 SEK");
  await row.getByRole("button", { name: `Edit ${code}` }).click();
  await row.getByLabel("Price").fill("4.5");
  await row.getByRole("button", { name: "Save" }).click();
  await expect(row).toContainText("4.50 SEK");
  await page.goto(`/admin/partners/${demo().partnerId}`);
  await page.getByLabel("Pro plan billing code").selectOption(code);
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();
  await page.goto("/admin/billing-codes");
  page.once("dialog", (dialog) => void dialog.accept());
  await row.getByRole("button", { name: `Delete ${code}` }).click();
  await expect(row.getByRole("alert")).toContainText("is used by 1 partner: retire it instead of deleting it");
  await row.getByRole("button", { name: `Retire ${code}` }).click();
  await expect(row).toContainText("retired");
  await snap(page, testInfo, "billing-codes");
  // the partner keeps its retired code; the distributor API refuses an unknown one
  await page.goto(`/admin/partners/${demo().partnerId}`);
  await expect(page.getByLabel("Pro plan billing code")).toHaveValue(code);
  const refused = await request.patch(`/api/v1/distributors/partners/${demo().partnerId}`, {
    headers: { "SW-DISTRIBUTOR-ID": demo().distributorId, "SW-API-KEY": demo().distributorKey },
    data: { basic_billing_code: "NO-SUCH-CODE" },
  });
  expect(refused.status()).toBe(400);
  expect(await refused.json()).toEqual({
    success: false,
    error: "Validation failed: basic_billing_code: Unknown billing code NO-SUCH-CODE",
  });
  await request.patch(`/api/v1/distributors/partners/${demo().partnerId}`, {
    headers: { "SW-DISTRIBUTOR-ID": demo().distributorId, "SW-API-KEY": demo().distributorKey },
    data: { pro_billing_code: null },
  });

  // A failing endpoint is failing from its first failed attempt; a waiting delivery can be retried now.
  const receiver = await startReceiver(() => ({ status: 500 }));
  const breach = (await partnerBreaches(request, customerId)).breaches[0];
  try {
    const created = await request.post("/api/v1/integrations/webhooks", {
      headers: partnerHeaders(),
      data: { url: receiver.url, eventTypes: ["customer.breach.resolved"], maxAttempts: 3 },
    });
    const endpointId: string = (await created.json()).webhook.id;
    await request.post("/api/v1/integrations/breach/status", { headers: partnerHeaders(), data: { breachId: breach.id, resolved: true } });
    await expect.poll(() => receiver.requests.length, { timeout: 20_000 }).toBeGreaterThan(0);
    await page.goto(`/admin/webhooks/${endpointId}`);
    await expect(page.getByRole("definition").filter({ hasText: "failing" }).first()).toBeVisible();
    const waiting = page.getByRole("button", { name: "Retry now" });
    if (await waiting.count()) {
      const before = receiver.requests.length;
      await waiting.first().click();
      await expect(page.locator(".field-error[role=alert]")).toHaveCount(0);
      await expect.poll(() => receiver.requests.length, { timeout: 20_000 }).toBeGreaterThan(before);
    }
    await snap(page, testInfo, "endpoint-failing");
    await request.delete(`/api/v1/integrations/webhooks/${endpointId}`, { headers: partnerHeaders() });
  } finally {
    await request.post("/api/v1/integrations/breach/status", { headers: partnerHeaders(), data: { breachId: breach.id, resolved: false } });
    await receiver.close();
  }
});

test("no admin or portal page scrolls sideways on a phone (390 px)", async ({ browser, page, request }) => {
  const customerId = await demoCustomerId(request, DEMO_ACTIVE);
  const breachId = (await partnerBreaches(request, customerId)).breaches[0].id;
  const receiver = await startReceiver(() => ({ status: 500 }));
  const created = await request.post("/api/v1/integrations/webhooks", {
    headers: partnerHeaders(),
    data: { url: receiver.url, eventTypes: ["customer.breach.resolved"] },
  });
  const endpointId: string = (await created.json()).webhook.id;
  try {
    await adminSignIn(page);
    await page.setViewportSize(PHONE);
    const mailId = await page
      .goto("/admin/mail")
      .then(() => page.locator("a[href^='/admin/mail/']").first().getAttribute("href"))
      .then((href) => href?.split("/").pop());
    const adminPages = [
      "/admin",
      "/admin/partners",
      "/admin/partners/new",
      `/admin/partners/${demo().partnerId}`,
      `/admin/partners/${demo().partnerId}/customers`,
      `/admin/customers/${customerId}`,
      "/admin/plans",
      "/admin/billing-codes",
      "/admin/webhooks",
      `/admin/webhooks/${endpointId}`,
      "/admin/billing",
      "/admin/mail",
      ...(mailId ? [`/admin/mail/${mailId}`] : []),
      "/admin/no-such-page",
    ];
    for (const path of adminPages) {
      await page.goto(path);
      await expect(page.locator("h1").first()).toBeVisible();
      await expectNoSidewaysScroll(page);
    }

    const { context, page: portal } = await portalAs(browser, await createMagicLink(request, customerId), PHONE);
    for (const path of [
      "/portal",
      "/portal/breaches",
      `/portal/breaches/${breachId}`,
      "/portal/assets",
      "/portal/settings",
      "/portal/no-such-page",
      "/portal/sign-in",
      "/auth/error?reason=expired",
    ]) {
      await portal.goto(path);
      await expect(portal.locator("h1").first()).toBeVisible();
      await expectNoSidewaysScroll(portal);
    }
    await context.close();
  } finally {
    await request.delete(`/api/v1/integrations/webhooks/${endpointId}`, { headers: partnerHeaders() });
    await receiver.close();
  }
});
