/**
 * `npm run screens`: screenshots of the main pages, desktop (1280 px) and phone (390 px), into
 * docs/screens/ (README.md, docs/portal.md and docs/admin-ui.md show them). It starts the service
 * as `npm start` does on a fresh embedded database of its own (demo data), signs into the portal
 * with a magic link and into the admin UI with the demo staff account, and drives Debian's
 * Chromium (CHROMIUM_PATH, default /usr/bin/chromium). SCREENS_PORT: default 3299.
 */
import { mkdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type Browser, type Page } from "@playwright/test";
import { startServiceProcess } from "./lib/service-process";

const OUT = path.resolve("docs/screens");
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

async function shoot(page: Page, name: string) {
  // Client components and fonts settle before the picture.
  await page.waitForLoadState("networkidle");
  await page.screenshot({ path: path.join(OUT, `${name}.png`) });
  console.log(`docs/screens/${name}.png`);
}

async function portalPages(browser: Browser, baseUrl: string, headers: Record<string, string>) {
  const customers = (await (await fetch(`${baseUrl}/api/v1/integrations/partner/customers?pageSize=10`, { headers })).json()) as {
    customers: Array<{ customerId: string; customerRef: string }>;
  };
  const northwind = customers.customers.find((customer) => customer.customerRef === "DEMO-NORTHWIND")!;
  for (const [viewport, suffix] of [
    [DESKTOP, "desktop"],
    [PHONE, "phone"],
  ] as const) {
    const link = (await (
      await fetch(`${baseUrl}/api/v1/integrations/customer/${northwind.customerId}/magic-link`, { method: "POST", headers })
    ).json()) as { url: string };
    const context = await browser.newContext({ viewport, baseURL: baseUrl });
    const page = await context.newPage();
    await page.goto(link.url);
    await shoot(page, `portal-overview-${suffix}`);
    // (the pictures the docs show: a few hundred KB in all)
    if (suffix === "phone") {
      await page.goto("/portal/breaches");
      await shoot(page, `portal-breaches-${suffix}`);
    }
    await context.close();
  }
  const context = await browser.newContext({ viewport: PHONE, baseURL: baseUrl });
  const page = await context.newPage();
  await page.goto("/portal/sign-in");
  await shoot(page, "portal-sign-in-phone");
  await context.close();
  return northwind.customerId;
}

async function adminPages(browser: Browser, baseUrl: string, staff: { email: string; password: string }, customerId: string) {
  for (const [viewport, suffix] of [
    [DESKTOP, "desktop"],
    [PHONE, "phone"],
  ] as const) {
    const context = await browser.newContext({ viewport, baseURL: baseUrl });
    const page = await context.newPage();
    await page.goto("/admin/sign-in");
    await page.getByLabel("E-mail").fill(staff.email);
    await page.getByLabel("Password").fill(staff.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Overview", level: 1 }).waitFor();
    if (suffix === "phone") await shoot(page, `admin-overview-${suffix}`);
    await page.goto(`/admin/customers/${customerId}`);
    await shoot(page, `admin-customer-${suffix}`);
    await context.close();
  }
}

async function main() {
  const port = Number(process.env.SCREENS_PORT ?? 3299);
  const dataDir = path.join(os.tmpdir(), `screens-${process.pid}`);
  mkdirSync(OUT, { recursive: true });
  const logFile = path.join(os.tmpdir(), `screens-${process.pid}.log`);
  const service = await startServiceProcess({ port, dataDir, logFile });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars"],
  });
  try {
    const headers = { "SW-PARTNER-ID": service.demo.partnerId, "SW-API-KEY": service.demo.partnerKey };
    const customerId = await portalPages(browser, service.baseUrl, headers);
    await adminPages(browser, service.baseUrl, { email: service.demo.staffEmail, password: service.demo.staffPassword }, customerId);
  } finally {
    await browser.close();
    service.stop();
    await service.exited;
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(logFile, { force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
