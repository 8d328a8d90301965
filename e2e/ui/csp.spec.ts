import { expect, test, type Page } from "@playwright/test";
import { demo } from "../demo";
import { createMagicLink, DEMO_ACTIVE, demoCustomerId } from "../portal";

/**
 * Every admin and portal page under the production server's Content-Security-Policy (a nonce
 * per answer for Next.js's scripts; docs/operations.md, "Request limits and security headers"):
 * the walk follows the pages' own links from each area's start (so pages added later are
 * walked too) and fails on any CSP violation, reported as a securitypolicyviolation event or a
 * console message, and on a page whose scripts did not run.
 */

/** Downloads and state changes reached by links; everything else under the area is walked. */
const SKIP = /\/export(\?|$)|\/attachments\/|sign-out|signout/;
const MAX_PAGES = 80;

async function recordViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  await page.exposeFunction("__reportCspViolation", (text: string) => violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      (window as unknown as { __reportCspViolation(text: string): void }).__reportCspViolation(
        `${event.violatedDirective} blocked ${event.blockedURI || "inline"} on ${location.pathname}`,
      );
    });
  });
  page.on("console", (message) => {
    if (/Content[- ]Security[- ]Policy|Refused to (execute|load|apply|connect|frame)/i.test(message.text())) {
      violations.push(`console: ${message.text()}`);
    }
  });
  return violations;
}

/** Visits `starts` and every same-origin page linked from them under `area`; returns the paths visited. */
async function walk(page: Page, area: RegExp, starts: string[]): Promise<string[]> {
  const queue = [...starts];
  const seen = new Set<string>();
  while (queue.length > 0 && seen.size < MAX_PAGES) {
    const target = queue.shift()!;
    const key = new URL(target, "http://x").pathname;
    if (seen.has(key)) continue;
    seen.add(key);
    const response = await page.goto(target);
    expect(response?.headers()["content-security-policy"], target).toMatch(/script-src 'self' 'nonce-/);
    await page.waitForLoadState("networkidle");
    // Next.js's scripts ran (they are what a wrong nonce would stop): the router is up.
    await expect.poll(() => page.evaluate(() => "next" in window), { message: `scripts ran on ${target}` }).toBe(true);
    // Downloads (a report's PDF) are files, not pages.
    const links = await page.$$eval("a[href]:not([download])", (anchors) => anchors.map((anchor) => (anchor as HTMLAnchorElement).href));
    for (const link of links) {
      const url = new URL(link);
      if (url.origin !== new URL(page.url()).origin || !area.test(url.pathname) || SKIP.test(url.pathname + url.search)) continue;
      if (!seen.has(url.pathname)) queue.push(url.pathname + url.search);
    }
  }
  return [...seen];
}

test("every admin page runs under the CSP without a violation", async ({ page }) => {
  const violations = await recordViolations(page);
  await page.goto("/admin/sign-in");
  await page.getByLabel("E-mail").fill(demo().staffEmail);
  await page.getByLabel("Password").fill(demo().staffPassword);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();
  const visited = await walk(page, /^\/admin(\/|$)/, ["/admin", "/admin/partners/new", "/admin/no-such-page"]);
  expect(visited.length).toBeGreaterThan(8);
  for (const path of ["/admin/partners", "/admin/webhooks", "/admin/mail", "/admin/billing", "/admin/billing-codes", "/admin/plans"]) {
    expect(visited).toContain(path);
  }
  expect(visited.some((path) => /^\/admin\/partners\/[0-9a-f-]{36}$/.test(path))).toBe(true);
  expect(violations).toEqual([]);
});

test("every portal page, the sign-in pages, unsubscribe and the API reference run under the CSP without a violation", async ({ page }) => {
  const violations = await recordViolations(page);
  await walk(page, /^\/$/, ["/", "/admin/sign-in", "/auth/error?reason=expired", "/unsubscribe?token=not-a-token"]);
  const link = await createMagicLink(page.request, await demoCustomerId(page.request, DEMO_ACTIVE));
  await page.goto(link);
  await expect(page).toHaveURL(/\/portal$/);
  const visited = await walk(page, /^\/portal(\/|$)/, ["/portal", "/portal/no-such-page"]);
  for (const path of ["/portal", "/portal/breaches", "/portal/assets", "/portal/settings"]) expect(visited).toContain(path);
  expect(visited.some((path) => /^\/portal\/breaches\/[0-9a-f-]{36}$/.test(path))).toBe(true);

  // Swagger UI (no Next.js scripts: its own files from 'self') renders the document.
  await page.goto("/docs");
  await expect(page.getByText("/api/v1/distributors/plans/{planId}")).toBeVisible();
  expect(violations).toEqual([]);
});
