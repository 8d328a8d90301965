import { expect, test, type Page, type TestInfo } from "@playwright/test";
import pg from "pg";
import { startReceiver } from "../../test/helpers/webhook-receiver";
import { partnerHeaders } from "../demo";
import {
  createMagicLink,
  DEMO_ACTIVE,
  expectAccessible,
  DEMO_PROSPECT,
  demoCustomerId,
  partnerBreaches,
  SESSION_COOKIE,
  tokenOf,
  type PartnerBreach,
} from "../portal";

/** Keeps a screenshot of the page as an artifact, and checks the page against WCAG A/AA rules. */
async function snap(page: Page, testInfo: TestInfo, name: string) {
  await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });
  await expectAccessible(page);
}

test("a customer opens a magic link, sees their breaches and marks one fixed; the partner API and a webhook receiver see it", async ({
  page,
  request,
  browser,
}, testInfo) => {
  const receiver = await startReceiver(() => ({ status: 500 }));
  try {
    const created = await request.post("/api/v1/integrations/webhooks", {
      headers: partnerHeaders(),
      data: { url: receiver.url, eventTypes: ["customer.breach.resolved"] },
    });
    expect(created.ok()).toBe(true);
    const secret: string = (await created.json()).webhook.secret;
    receiver.setRule(() => ({ status: 200, signWith: secret }));

    const customerId = await demoCustomerId(request, DEMO_ACTIVE);
    const before = await partnerBreaches(request, customerId);
    const breaches: PartnerBreach[] = before.breaches;
    const target = breaches.find((breach) => !breach.resolved)!;
    expect(target).toBeDefined();

    const url = await createMagicLink(request, customerId);
    await page.goto(url);
    await expect(page).toHaveURL(/\/portal$/);
    await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
    await expect(page.getByText("Northwind Traders", { exact: true })).toBeVisible();
    await expect(page.getByRole("img", { name: /^Threat score: \d+, (Low|Moderate|High|Critical)$/ })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Exposures over time" })).toBeVisible();
    await snap(page, testInfo, "overview");
    await page.keyboard.press("Tab");
    await expect(page.getByRole("link", { name: "Skip to content" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page.locator("main")).toBeFocused();

    // The keep-alive's request, as the browser sends it: the refresh token rotates, the session goes on.
    const cookieBefore = (await page.context().cookies()).find((cookie) => cookie.name === SESSION_COOKIE)!.value;
    const renewed = await page.evaluate(async () => {
      const response = await fetch("/auth/refresh", { method: "POST" });
      return { status: response.status, body: await response.json() };
    });
    expect(renewed).toEqual({ status: 200, body: { ok: true, accessExpiresAt: expect.any(Number) } });
    expect((await page.context().cookies()).find((cookie) => cookie.name === SESSION_COOKIE)!.value).not.toBe(cookieBefore);

    await page.getByRole("navigation", { name: "Portal" }).getByRole("link", { name: "Breaches" }).click();
    await expect(page).toHaveURL(/\/portal\/breaches$/);
    await expect(page.getByText(`1–${Math.min(10, breaches.length)} of ${breaches.length}`)).toBeVisible();
    for (const breach of breaches.slice(0, 5)) await expect(page.getByRole("link", { name: breach.title, exact: true })).toBeVisible();
    await snap(page, testInfo, "breaches");

    await page.getByRole("link", { name: target.title, exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: target.title })).toBeVisible();
    await expect(page.getByRole("heading", { name: "What to do now" })).toBeVisible();
    await snap(page, testInfo, "breach-detail");
    await page.getByRole("button", { name: "Mark as fixed" }).focus();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("status")).toHaveText("Saved.");
    await expect(page.getByRole("button", { name: "Mark as not fixed" })).toBeVisible();
    await snap(page, testInfo, "breach-fixed");

    const after = await partnerBreaches(request, customerId);
    expect(after.breaches.find((breach: PartnerBreach) => breach.id === target.id).resolved).toBe(true);
    await expect.poll(() => receiver.requests.length, { timeout: 20_000 }).toBeGreaterThan(0);
    const delivered = JSON.parse(receiver.requests[0]!.body);
    expect(delivered).toMatchObject({
      type: "customer.breach.resolved",
      data: { customer: { uuid: customerId }, breaches: [{ uuid: target.id }] },
    });

    await page.getByRole("link", { name: "Monitored assets" }).click();
    await expect(page.getByRole("heading", { level: 2, name: "Domains" })).toBeVisible();
    await expect(page.getByText("northwind.example", { exact: true })).toBeVisible();
    await snap(page, testInfo, "assets");

    // Another customer's breach is not found, like one that does not exist.
    const othersBreach = (await partnerBreaches(request, await demoCustomerId(request, DEMO_PROSPECT))).breaches[0].id;
    const notFound = await page.goto(`/portal/breaches/${othersBreach}`);
    expect(notFound?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "This breach does not exist or is not yours." })).toBeVisible();
    await snap(page, testInfo, "breach-not-found");

    // On a phone the navigation is behind the Menu button.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole("button", { name: "Menu" }).click();
    await page.getByRole("link", { name: "Overview", exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
    await snap(page, testInfo, "overview-phone");
    await page.getByRole("button", { name: "Menu" }).click();
    await page.getByRole("link", { name: "Breaches", exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Breaches" })).toBeVisible();
    await snap(page, testInfo, "breaches-phone");

    // The same link again, in a browser without a session: the error page, and no session cookie.
    const stranger = await browser.newContext();
    const strangerPage = await stranger.newPage();
    await strangerPage.goto(url);
    await expect(strangerPage).toHaveURL(/\/auth\/error\?reason=used/);
    await expect(strangerPage.getByRole("heading", { name: "This sign-in link has already been used" })).toBeVisible();
    expect((await stranger.cookies()).some((cookie) => cookie.name === SESSION_COOKIE)).toBe(false);
    await snap(strangerPage, testInfo, "link-used");
    await stranger.close();

    // Signing out ends the session.
    await page.getByRole("button", { name: "Menu" }).click();
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page.getByRole("heading", { name: "You are signed out" })).toBeVisible();
    await snap(page, testInfo, "signed-out");
    // The portal without a session: the sign-in form.
    await page.goto("/portal");
    await expect(page).toHaveURL(/\/portal\/sign-in$/);
    await expect(page.getByLabel("E-mail address")).toBeVisible();

    // Restore the demo data for the next run on this database.
    await request.post("/api/v1/integrations/breach/status", { headers: partnerHeaders(), data: { breachId: target.id, resolved: false } });
  } finally {
    await receiver.close();
  }
});

test("a prospect sees the redacted view; no withheld field reaches the browser, in the HTML or the RSC payload", async ({
  page,
  request,
}, testInfo) => {
  const customerId = await demoCustomerId(request, DEMO_PROSPECT);
  const redacted = await partnerBreaches(request, customerId);
  expect(redacted.breaches.length).toBeGreaterThan(0);
  for (const breach of redacted.breaches) expect(Object.keys(breach).sort()).toEqual(["emails", "id", "resolved"]);

  // What is withheld: the full records of the same addresses (breach/retrieve is not redacted).
  const emails = [...new Set<string>(redacted.breaches.flatMap((breach: { emails: string[] }) => breach.emails))];
  const withheld = new Set<string>();
  for (const email of emails) {
    const response = await request.post("/api/v1/integrations/breach/retrieve", { headers: partnerHeaders(), data: { email } });
    for (const breach of (await response.json()).breaches) {
      withheld.add(breach.title);
      withheld.add(breach.breachDate);
      withheld.add(breach.description.slice(0, 60));
      for (const category of breach.breachCategories) if (category.includes(" ")) withheld.add(category);
      for (const step of breach.nextSteps) withheld.add(step);
    }
  }
  expect(withheld.size).toBeGreaterThan(3);

  await page.goto(await createMagicLink(request, customerId));
  await expect(page).toHaveURL(/\/portal$/);
  await expect(page.getByRole("heading", { name: "What full monitoring shows" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Exposures over time" })).toHaveCount(0);
  await snap(page, testInfo, "prospect-overview");

  await page.getByRole("link", { name: "Breaches", exact: true }).click();
  await expect(page.getByRole("link", { name: "Exposure 1", exact: true })).toBeVisible();
  // (ten to a page: the first exposure's addresses are among the exposed ones)
  const shown = (await page.locator("main li dd").first().textContent())!.split(", ");
  expect(shown.every((email) => emails.includes(email))).toBe(true);
  await snap(page, testInfo, "prospect-breaches");
  await page.getByRole("link", { name: "Exposure 1", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Exposure 1" })).toBeVisible();
  await snap(page, testInfo, "prospect-breach-detail");

  const paths = ["/portal", "/portal/breaches", `/portal/breaches/${redacted.breaches[0].id}`, "/portal/assets"];
  for (const path of paths) {
    const html = await (await page.request.get(path)).text();
    const flightResponse = await page.request.get(path, { headers: { RSC: "1" } });
    expect(flightResponse.headers()["content-type"]).toContain("text/x-component");
    const flight = await flightResponse.text();
    expect(html).toContain("Exposure portal");
    expect(flight).toContain("Exposure portal");
    await page.goto(path);
    const rendered = await page.content();
    for (const value of withheld) {
      for (const [what, text] of [
        ["HTML", html],
        ["RSC payload", flight],
        ["DOM", rendered],
      ] as const) {
        expect(text.includes(value), `${path} ${what} contains withheld "${value}"`).toBe(false);
      }
    }
  }
});

test("an unknown link lands on the error page", async ({ page }, testInfo) => {
  await page.goto(`/auth/confirm?token_hash=${"B".repeat(43)}&type=magiclink`);
  await expect(page.getByRole("heading", { name: "This sign-in link does not work" })).toBeVisible();
  await snap(page, testInfo, "link-invalid");
});

test("an expired link lands on the error page in the customer's language", async ({ page, request }, testInfo) => {
  const databaseUrl = process.env.E2E_DATABASE_URL;
  test.skip(!databaseUrl, "expiring a link needs the e2e database (TEST_DATABASE_URL)");
  const customerId = await demoCustomerId(request, DEMO_ACTIVE);
  const url = await createMagicLink(request, customerId);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`UPDATE customers SET locale_code = 'sv-SE' WHERE id = $1`, [customerId]);
    await client.query(
      `UPDATE magic_link_tokens SET expires_at = now() - interval '1 second' WHERE token_hash = encode(sha256($1::bytea), 'hex')`,
      [tokenOf(url)],
    );
    await page.goto(url);
    await expect(page).toHaveURL(/reason=expired&lang=sv-SE/);
    await expect(page.getByRole("heading", { name: "Den här inloggningslänken har gått ut" })).toBeVisible();
    await snap(page, testInfo, "link-expired-sv");
  } finally {
    await client.query(`UPDATE customers SET locale_code = 'en-GB' WHERE id = $1`, [customerId]);
    await client.end();
  }
});
