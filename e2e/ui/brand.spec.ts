import { chromium, expect, test, type Browser, type Page, type TestInfo } from "@playwright/test";
import { partnerHeaders } from "../demo";
import { createMagicLink, DEMO_ACTIVE, demoCustomerId, expectAccessible } from "../portal";

const BRAND_PATH = "/api/v1/integrations/partner/brand";
const PORTAL_HOST = "portal.brand-e2e.test";
const LOGO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="240" height="80" onload="alert(1)">
  <script>alert(2)</script>
  <rect width="240" height="80" rx="12" fill="#0b5394"/>
  <circle cx="40" cy="40" r="24" fill="#ffffff"/>
</svg>`;

/** Debian's Chromium with the partner's portal host resolving to the service under test. */
function browserWithPortalHost(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", `--host-resolver-rules=MAP ${PORTAL_HOST} 127.0.0.1`],
  });
}

/** A screenshot at each width the brief names, each page checked against WCAG A/AA (colour contrast included). */
async function snapBothWidths(page: Page, testInfo: TestInfo, name: string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.screenshot({ path: testInfo.outputPath(`${name}-${width}.png`), fullPage: true });
    await expectAccessible(page);
  }
}

test.describe("a partner's brand in the portal", () => {
  test.afterAll(async ({ request }) => {
    // The demo partner goes back to the service's own look for the other suites.
    await request.put(BRAND_PATH, { headers: partnerHeaders(), data: {} });
  });

  test("the portal host shows the brand before sign-in; signed in, header, colours, titles and contacts are the partner's", async ({
    request,
    baseURL,
  }, testInfo) => {
    const put = await request.put(BRAND_PATH, {
      headers: partnerHeaders(),
      data: {
        name: "Acme IT",
        logo: `data:image/svg+xml;base64,${Buffer.from(LOGO_SVG).toString("base64")}`,
        primaryColor: "#0b5394",
        supportEmail: "help@acme.example",
        supportPhone: "+44 20 7946 0000",
        supportUrl: "https://help.acme.example",
        portalHost: PORTAL_HOST,
      },
    });
    expect(put.status()).toBe(200);
    const port = new URL(baseURL!).port;
    const browser = await browserWithPortalHost();
    try {
      // Before sign-in, on the registered host: the brand.
      const visitor = await browser.newPage();
      await visitor.goto(`http://${PORTAL_HOST}:${port}/portal/sign-in`);
      await expect(visitor).toHaveTitle("Sign in to the portal · Acme IT");
      await expect(visitor.getByText("Acme IT", { exact: true })).toBeVisible();
      await expect(visitor.getByText("Exposure portal")).toHaveCount(0);
      await expect(visitor.getByRole("link", { name: "help@acme.example" })).toHaveAttribute("href", "mailto:help@acme.example");
      await expect(visitor.getByRole("button", { name: /link/i })).toHaveCSS("background-color", "rgb(11, 83, 148)");
      await snapBothWidths(visitor, testInfo, "sign-in-branded");
      await visitor.goto(`http://${PORTAL_HOST}:${port}/auth/error?reason=expired&lang=en-GB`);
      await expect(visitor).toHaveTitle(/ · Acme IT$/);
      await snapBothWidths(visitor, testInfo, "sign-in-error-branded");

      // Any other host: the service's own look.
      const elsewhere = await browser.newPage();
      await elsewhere.goto(`${baseURL}/portal/sign-in`);
      await expect(elsewhere.getByText("Exposure portal")).toBeVisible();
      await expect(elsewhere.getByText("Acme IT")).toHaveCount(0);

      // The partner's link points at its portal host; signed in there, the portal is branded.
      const url = await createMagicLink(request, await demoCustomerId(request, DEMO_ACTIVE));
      expect(url.startsWith(`http://${PORTAL_HOST}:${port}/auth/confirm?`)).toBe(true);
      const customer = await browser.newPage();
      await customer.goto(url);
      await expect(customer).toHaveURL(new RegExp(`^http://${PORTAL_HOST.replace(/\./g, "\\.")}:${port}/portal$`));
      await expect(customer).toHaveTitle("Overview · Acme IT");
      const logo = customer.locator("header img");
      await expect(logo).toBeVisible();
      expect(await logo.getAttribute("src")).toMatch(/^data:image\/png;base64,/);
      await expect(customer.locator("header").getByText("Acme IT", { exact: true })).toBeVisible();
      await expect(customer.locator("header")).toHaveCSS("border-top-color", "rgb(11, 83, 148)");
      await expect(customer.getByRole("link", { name: "+44 20 7946 0000" })).toHaveAttribute("href", "tel:+442079460000");
      await snapBothWidths(customer, testInfo, "overview-branded");
      await customer.goto(`http://${PORTAL_HOST}:${port}/portal/breaches`);
      await expect(customer).toHaveTitle(/ · Acme IT$/);
      await snapBothWidths(customer, testInfo, "breaches-branded");
    } finally {
      await browser.close();
    }
  });
});
