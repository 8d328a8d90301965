import { expect, test, type Page } from "@playwright/test";
import { partnerHeaders } from "../demo";

/**
 * What a new user finds on the running instance alone: the start page sends each kind of user on,
 * the guides are served at /docs/<name> beside the API reference, and breach category links lead
 * to pages in six locales; at desktop and phone widths, never wider than the screen.
 */
const WIDTHS = [
  { name: "desktop", width: 1280, height: 900 },
  { name: "phone", width: 390, height: 844 },
];

async function expectNoSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

for (const size of WIDTHS) {
  test.describe(`at ${size.width} px`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    test("the start page says what the service does and sends each kind of user on", async ({ page }, testInfo) => {
      await page.goto("/");
      await expect(page.getByRole("heading", { level: 1, name: "Exposure monitoring" })).toBeVisible();
      await expect(page.getByText(/Watches organizations' domains and e-mail addresses/)).toBeVisible();
      const developers = page.getByRole("region", { name: "Partner developers" });
      await expect(developers.getByRole("link", { name: "API reference" })).toHaveAttribute("href", "/docs/reference");
      await expect(developers.getByRole("link", { name: "OpenAPI document" })).toHaveAttribute("href", "/api/openapi.json");
      await expect(developers.getByRole("link", { name: "Health" })).toHaveAttribute("href", "/api/v1/health");
      await expect(developers.getByText("WEBHOOK_ALLOW_PRIVATE_URLS=true")).toBeVisible();
      await expect(
        page.getByRole("region", { name: "Distributor staff" }).getByRole("link", { name: "Sign in to the admin UI" }),
      ).toHaveAttribute("href", "/admin/sign-in");
      await expect(page.getByRole("region", { name: "Customers" }).getByRole("link", { name: "Sign in with your e-mail" })).toHaveAttribute(
        "href",
        "/portal/sign-in",
      );
      await expect(page.locator('head link[rel="icon"]').first()).toHaveAttribute("href", /icon|favicon/);
      await expectNoSidewaysScroll(page);
      await page.screenshot({ path: testInfo.outputPath(`landing-${size.name}.png`), fullPage: true });

      await developers.getByRole("link", { name: "Receive webhooks" }).click();
      await expect(page).toHaveURL(/\/docs\/webhooks#receive-webhooks$/);
      await expect(page.getByRole("heading", { name: "Receive webhooks" })).toBeInViewport();
    });

    test("the guides are served at /docs/<name>, linked to each other and to the API reference", async ({ page, baseURL }, testInfo) => {
      await page.goto("/docs/api");
      await expect(page).toHaveTitle(/The REST API/);
      await expect(page.getByRole("heading", { level: 1, name: "The REST API" })).toBeVisible();
      await expectNoSidewaysScroll(page);
      // A link written as customers.md#paths in the guide leads to the served guide and its heading.
      const toCustomers = page.locator('.docs-content a[href^="/docs/customers#"]').first();
      const href = (await toCustomers.getAttribute("href"))!;
      await toCustomers.click();
      await expect(page).toHaveURL(new RegExp(`${href}$`));
      await expect(page.locator(`[id="${href.split("#")[1]}"]`)).toBeInViewport();
      await expectNoSidewaysScroll(page);

      await page.goto("/docs/webhooks");
      await expect(page.getByRole("heading", { level: 1, name: "Webhooks: endpoints, signing secrets, delivery" })).toBeVisible();
      await expect(page.getByRole("heading", { name: "Receive webhooks" })).toBeAttached();
      await expect(page.locator("pre code").filter({ hasText: "hash_hmac('sha256'" })).toBeAttached();
      // The first delivery's commands name this instance (APP_URL), ready to copy; "Receive webhooks" is linked from the top.
      await expect(
        page.locator("pre code").filter({ hasText: `${baseURL}/api/v1/integrations/webhooks/<webhook id>/test` }),
      ).toBeAttached();
      await expect(page.locator(".docs-content")).not.toContainText("your-instance.example");
      await expect(page.locator('.docs-content > p a[href="#receive-webhooks"]').first()).toBeVisible();
      await expectNoSidewaysScroll(page);
      await page.screenshot({ path: testInfo.outputPath(`guide-${size.name}.png`) });

      // Every guide and the API reference are reachable from the guides' own navigation.
      if (size.width < 600) await page.getByText("All guides and the API reference").click();
      const nav = page.locator(size.width < 600 ? ".docs-nav-phone" : ".docs-nav-side");
      await nav.getByRole("link", { name: /^API reference/ }).click();
      await expect(page).toHaveURL(/\/docs\/reference$/);
      // Swagger UI renders the document in the browser (a large script): give it time on a busy machine.
      await expect(page.getByRole("heading", { name: /Exposure monitoring integration API/ })).toBeVisible({ timeout: 30_000 });
      await expect(page.getByText("/api/v1/distributors/plans/{planId}")).toBeVisible();
      await page.getByRole("navigation", { name: "Documentation" }).getByRole("link", { name: "Conventions" }).click();
      await expect(page).toHaveURL(/\/docs\/api$/);
      await expect(page.getByRole("heading", { level: 1, name: "The REST API" })).toBeVisible();
    });

    test("breach category links from the API lead to their pages, in the six locales", async ({ page, request }, testInfo) => {
      const list = await request.get("/api/v1/integrations/breach-categories", { headers: partnerHeaders() });
      const categories = (await list.json()).breachCategories as Array<{ name: string; link: string }>;
      const passwords = categories.find((category) => category.name === "Passwords")!;
      await page.goto(passwords.link);
      await expect(page.getByRole("heading", { level: 1, name: "Passwords exposed in a data breach" })).toBeVisible();
      await expect(page.getByText("Critical")).toBeVisible();
      await expect(page.getByRole("heading", { name: "What to do" })).toBeVisible();
      await expectNoSidewaysScroll(page);
      await page.screenshot({ path: testInfo.outputPath(`kb-${size.name}.png`) });
      await page.getByRole("link", { name: "Suomi" }).click();
      await expect(page).toHaveURL(/\?lang=fi-FI$/);
      await expect(page.getByRole("heading", { level: 1, name: "Passwords paljastui tietomurrossa" })).toBeVisible();
      await expect(page.getByRole("heading", { name: "Mitä tehdä" })).toBeVisible();
      await expect(page.locator("main")).toHaveAttribute("lang", "fi-FI");
    });
  });
}

test("/docs, the old address of the API reference, redirects there; unknown guides and categories are 404", async ({ request }) => {
  const old = await request.get("/docs", { maxRedirects: 0 });
  expect(old.status()).toBe(308);
  expect(old.headers().location).toBe("/docs/reference");
  expect((await request.get("/docs/no-such-guide")).status()).toBe(404);
  // The contributor docs are the repository's, not the instance's.
  for (const name of ["measures", "flow", "adr"]) expect((await request.get(`/docs/${name}`)).status()).toBe(404);
  expect((await request.get("/kb/breach-categories/no-such-category")).status()).toBe(404);
  const favicon = await request.get("/favicon.ico");
  expect(favicon.status()).toBe(200);
  expect(favicon.headers()["content-type"]).toMatch(/image\/(x-icon|vnd\.microsoft\.icon)/);
});

test("Try it out in the API reference calls the host the page was served from, whatever APP_URL says", async ({ page, baseURL }) => {
  // The service's APP_URL is 127.0.0.1; the page is opened through another host name for the same server.
  const otherHost = baseURL!.replace("127.0.0.1", "localhost");
  const calls: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/api/v1/health")) calls.push(request.url());
  });
  await page.goto(`${otherHost}/docs/reference`);
  const health = page
    .locator(".opblock")
    .filter({ has: page.locator('[data-path="/api/v1/health"]') })
    .first();
  await health.locator(".opblock-summary").click();
  await health.getByRole("button", { name: "Try it out" }).click();
  await health.getByRole("button", { name: "Execute" }).click();
  await expect(health.locator(".live-responses-table tr.response .response-col_status")).toHaveText("200");
  expect(calls).toEqual([`${otherHost}/api/v1/health`]);
});
