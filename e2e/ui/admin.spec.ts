import { createHmac } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Page } from "@playwright/test";
import { admin, demo, requireAdminCli } from "../demo";

/**
 * The admin UI in Debian's Chromium against the service as `npm start` runs it: a distributor's
 * staff member signs in, creates a partner, issues its API key and uses it against the partner
 * API, registers a webhook to a receiver in this test and sees the deliveries in the log, revokes
 * the key; and staff of one distributor cannot reach another's partners.
 */

/** A webhook receiver on 127.0.0.1 that checks the signature and answers with its own (docs/webhooks.md). */
async function startReceiver() {
  const received: Array<{ type: string; data: { customer?: { uuid: string } }; idempotencyToken: string }> = [];
  let secret = "";
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const expected = createHmac("sha256", secret).update(body).digest("hex");
      if (!secret || request.headers["x-signature"] !== expected) {
        response.writeHead(401).end("bad signature");
        return;
      }
      received.push(JSON.parse(body));
      const answer = createHmac("sha256", secret)
        .update(`${String(request.headers["x-token"])}:${body}`)
        .digest("hex");
      response.writeHead(200, { "X-Signature": answer }).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    useSecret: (value: string) => (secret = value),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function signIn(page: Page, email: string, password: string) {
  await page.goto("/admin/sign-in");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();
}

async function navigateTo(page: Page, entry: string) {
  await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: entry, exact: true }).click();
  await expect(page.getByRole("heading", { name: entry, level: 1 })).toBeVisible();
}

async function signOut(page: Page) {
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
}

test("staff sign in, create a partner, issue and revoke its key, and follow a distributor webhook's deliveries", async ({
  page,
  context,
  request,
}, testInfo) => {
  const shot = (name: string) => page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });
  const receiver = await startReceiver();
  try {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);

    // Every admin page sends a visitor without a session to the sign-in page.
    await page.goto("/admin/partners");
    await expect(page).toHaveURL(/\/admin\/sign-in$/);
    await page.getByLabel("E-mail").fill(demo().staffEmail);
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.locator(".form-error")).toHaveText("The e-mail address or password is not right.");
    await shot("01-sign-in-refused");

    await signIn(page, demo().staffEmail, demo().staffPassword);
    await expect(page.getByText("Demo Distributor")).toBeVisible();
    await shot("02-overview");

    // Create a partner; the API's validation answers inline at the field.
    await navigateTo(page, "Partners");
    await page.getByRole("link", { name: "New partner" }).click();
    const partnerName = `E2E Partner ${Date.now().toString(36)}`;
    await page.getByLabel("Name").fill(partnerName);
    await page.getByLabel("Contact e-mail").fill("ops@");
    await page.getByLabel("Account reference").fill("E2E-001");
    await page.getByRole("button", { name: "Create partner" }).click();
    await expect(page.locator("#field-contact_email-error")).toHaveText("Invalid email address");
    await expect(page.getByLabel("Contact e-mail")).toHaveAttribute("aria-invalid", "true");
    await shot("03-partner-invalid-email");
    await page.getByLabel("Contact e-mail").fill("ops@e2e-partner.example");
    await page.getByRole("button", { name: "Create partner" }).click();
    await expect(page.getByRole("heading", { name: partnerName, level: 1 })).toBeVisible();
    await expect(page.getByText("Partner created.")).toBeVisible();
    const partnerId = (await page.getByTestId("partner-id").textContent())!;

    // Issue a key: shown once, copyable, and it works against the partner API.
    await page.getByRole("button", { name: "Issue a new API key" }).click();
    const secretBox = page.getByRole("region", { name: "New API key" });
    await expect(secretBox).toBeVisible();
    const apiKey = (await secretBox.getByTestId("one-time-secret").textContent())!;
    expect(apiKey).toMatch(/^expmon_p_/);
    await secretBox.getByRole("button", { name: "Copy" }).click();
    await expect(secretBox.getByText("Copied")).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(apiKey);
    // Listed by its id, never by the start of the key itself.
    const keyId = (await secretBox.getByTestId("issued-key-id").textContent())!;
    const keyRow = page.getByRole("row").filter({ hasText: keyId });
    await expect(keyRow).toContainText("active");
    await expect(page.getByRole("table", { name: /^API keys of / })).not.toContainText(apiKey.slice(0, 12));
    await shot("04-api-key-issued");
    const partnerHeaders = { "SW-PARTNER-ID": partnerId, "SW-API-KEY": apiKey };
    const plans = await request.get("/api/v1/integrations/partner/plans", { headers: partnerHeaders });
    expect(plans.status()).toBe(200);

    // Register a distributor webhook to the receiver; its signing secret is shown once.
    await navigateTo(page, "Webhooks");
    await page.getByLabel("URL").fill(receiver.url);
    const events = page.getByRole("group", { name: "Events" });
    for (const box of await events.getByRole("checkbox").all()) await box.uncheck();
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await expect(page.locator("#event-types-error")).toHaveText("At least one event type is required");
    await events.getByLabel("customer.created").check();
    await events.getByLabel("customer.deleted").check();
    await page.getByRole("button", { name: "Add endpoint" }).click();
    const signingSecret = page.getByRole("region", { name: "Signing secret", exact: true });
    await expect(signingSecret).toBeVisible();
    receiver.useSecret((await signingSecret.getByTestId("one-time-secret").textContent())!);
    await expect(page.getByRole("link", { name: receiver.url })).toBeVisible();
    await shot("05-webhook-registered");

    // A customer onboarded with the new key reaches the distributor's endpoint, signed.
    const onboard = await request.post("/api/v1/integrations/customer/onboard", {
      headers: partnerHeaders,
      data: {
        companyName: "E2E Customer Ltd",
        contactEmail: "it@e2e-customer.example",
        customerReference: "E2E-CUST-1",
        assetsDomains: ["e2e-customer.example"],
        price: 10,
        currencyCode: "EUR",
      },
    });
    expect(onboard.status()).toBe(200);
    const customerId = (await onboard.json()).customerId as string;
    await expect
      .poll(() => receiver.received.some((event) => event.type === "customer.created" && event.data.customer?.uuid === customerId))
      .toBe(true);

    // The delivery log shows it delivered, with its attempt; a test event follows it.
    await page.getByRole("link", { name: receiver.url }).click();
    await expect(page.getByRole("heading", { name: "Delivery log" })).toBeVisible();
    const createdRow = page.getByRole("row").filter({ hasText: "customer.created" });
    await expect(async () => {
      await page.getByRole("button", { name: "Refresh" }).click();
      await expect(createdRow).toContainText("delivered", { timeout: 1_000 });
    }).toPass();
    await createdRow.getByText("1 attempt").click();
    await expect(createdRow.getByText(/HTTP 200/)).toBeVisible();
    await page.getByLabel("Event type").selectOption("customer.deleted");
    await page.getByRole("button", { name: "Send test event" }).click();
    await expect(page.getByText("Test event queued")).toBeVisible();
    await expect.poll(() => receiver.received.some((event) => event.type === "customer.deleted")).toBe(true);
    const testRow = page.getByRole("row").filter({ hasText: "customer.deleted" });
    await expect(async () => {
      await page.getByRole("button", { name: "Refresh" }).click();
      await expect(testRow).toContainText("delivered", { timeout: 1_000 });
    }).toPass();
    await expect(testRow).toContainText("test");
    await shot("06-delivery-log");

    // Signing secrets: cycle (the previous one becomes the fallback), then deactivate the fallback.
    await navigateTo(page, "Webhooks");
    const secrets = page.getByRole("region", { name: "Signing secrets", exact: true });
    await page.getByRole("button", { name: "Cycle secret" }).click();
    await expect(page.getByRole("region", { name: "New signing secret" }).getByTestId("one-time-secret")).toHaveText(/^[0-9a-f-]{36}$/);
    await expect(secrets.getByRole("row").filter({ hasText: "fallback" })).toHaveCount(1);
    await shot("07-signing-secrets-cycled");
    page.once("dialog", (dialog) => void dialog.accept());
    await secrets.getByRole("button", { name: "Deactivate the fallback secret" }).click();
    await expect(secrets.getByRole("row").filter({ hasText: "fallback" })).toHaveCount(0);
    await expect(secrets.getByRole("row").filter({ hasText: "active" })).toHaveCount(1);

    // A billing code (the form refuses a third decimal at the field), set as the partner's basic code.
    await navigateTo(page, "Billing codes");
    const billingCode = `E2E-${Date.now().toString(36).toUpperCase()}`;
    await page.getByRole("textbox", { name: "Code", exact: true }).fill(billingCode);
    await page.getByRole("textbox", { name: "Price", exact: true }).fill("3.505");
    await page.getByRole("button", { name: "Add billing code" }).click();
    await expect(page.locator("#field-price-error")).toHaveText("Price can have at most 2 decimals");
    await page.getByRole("textbox", { name: "Price", exact: true }).fill("3.5");
    await page.getByRole("button", { name: "Add billing code" }).click();
    await expect(page.getByRole("row").filter({ hasText: billingCode })).toContainText("3.50 EUR");
    await page.goto(`/admin/partners/${partnerId}`);
    // chosen from the distributor's codes
    await page.getByLabel("Basic plan billing code").selectOption(billingCode);
    await page.getByLabel("Monthly churn limit").fill("5");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();
    await page.reload();
    await expect(page.getByLabel("Basic plan billing code")).toHaveValue(billingCode);
    await expect(page.getByLabel("Monthly churn limit")).toHaveValue("5");

    // Billing: the new partner's active customer at that code's price, in the table and the CSV.
    await navigateTo(page, "Billing");
    await expect(page.getByRole("row").filter({ hasText: partnerName }).getByRole("cell")).toHaveText([
      "Basic",
      billingCode,
      "3.50 EUR",
      "1",
      "3.50 EUR",
    ]);
    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: "Download CSV" }).click();
    const csv = await (await download).path().then((file) => import("node:fs").then((fs) => fs.readFileSync(file, "utf8")));
    expect(csv.split("\r\n")[0]).toBe(
      "month,partner_id,partner_name,account_reference,plan,billing_code,unit_price,active_customers,amount,currency",
    );
    expect(csv).toContain(`,${partnerId},${partnerName},E2E-001,basic,${billingCode},3.50,1,3.50,EUR\r\n`);
    await shot("08-billing");

    // Revoke the key: the partner API refuses it at once.
    await page.goto(`/admin/partners/${partnerId}`);
    page.once("dialog", (dialog) => void dialog.accept());
    await keyRow.getByRole("button", { name: /Revoke/ }).click();
    await expect(keyRow).toContainText("revoked");
    await shot("09-api-key-revoked");
    const refused = await request.get("/api/v1/integrations/partner/plans", { headers: partnerHeaders });
    expect(refused.status()).toBe(401);
    expect(await refused.json()).toEqual({ success: false, error: "Failed to verify org API key" });

    // The partner's customers, read-only.
    await page.getByRole("main").getByRole("link", { name: "Customers", exact: true }).click();
    await expect(page.getByRole("row").filter({ hasText: "E2E Customer Ltd" })).toContainText("active");

    await signOut(page);
    await page.goto("/admin");
    await expect(page).toHaveURL(/\/admin\/sign-in$/);
  } finally {
    await receiver.close();
  }
});

test("sign-in attempts are limited per e-mail address, with a message that says so", async ({ page }, testInfo) => {
  const email = `locked-${Date.now().toString(36)}@e2e.example`;
  await page.goto("/admin/sign-in");
  const attempt = async (password: string) => {
    await page.getByLabel("E-mail").fill(email);
    await page.getByLabel("Password").fill(password);
    const answered = page.waitForResponse((response) => response.url().includes("/api/auth/callback/staff"));
    await page.getByRole("button", { name: "Sign in" }).click();
    await answered;
    return page.locator(".form-error");
  };
  for (let guess = 1; guess <= 10; guess++)
    await expect(await attempt(`guess number ${guess}`)).toHaveText("The e-mail address or password is not right.");
  await expect(await attempt("guess number 11")).toHaveText(/^Too many sign-in attempts for this account or from this network/);
  await page.screenshot({ path: testInfo.outputPath("sign-in-rate-limited.png") });
});

test("the admin UI is usable at phone width", async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, demo().staffEmail, demo().staffPassword);
  await navigateTo(page, "Partners");
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.screenshot({ path: testInfo.outputPath("phone-partners.png"), fullPage: true });
});

test("staff of one distributor cannot reach another distributor's partners by URL or tRPC call", async ({ page }, testInfo) => {
  requireAdminCli();
  const distributorY = String((await admin("create-distributor", "--name", "E2E Distributor Y")).id);
  const partnerY = String((await admin("create-partner", "--distributor", distributorY, "--name", "Y Confidential Partner")).id);
  const staffY = { email: `staff-y-${Date.now().toString(36)}@e2e.example`, password: "staff Y password" };
  await admin("create-staff", "--distributor", distributorY, "--email", staffY.email, "--password", staffY.password);

  // X (the demo distributor's staff) by URL: the not-found page, for the partner and its customers.
  await signIn(page, demo().staffEmail, demo().staffPassword);
  for (const path of [`/admin/partners/${partnerY}`, `/admin/partners/${partnerY}/customers`]) {
    const response = await page.goto(path);
    expect(response!.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
    await expect(page.getByText("Y Confidential Partner")).toHaveCount(0);
  }
  await page.screenshot({ path: testInfo.outputPath("other-distributor-404.png"), fullPage: true });
  await page.goto("/admin/partners?q=Confidential");
  await expect(page.getByText("No partner matches")).toBeVisible();

  // X by tRPC call with its own session cookie: queries and mutations answer 404, nothing changes.
  const input = encodeURIComponent(JSON.stringify({ partnerId: partnerY }));
  const read = await page.request.get(`/api/trpc/admin.partners.get?input=${input}`);
  expect(read.status()).toBe(404);
  expect((await read.json()).error.message).toBe("Partner not found");
  for (const [procedure, body] of [
    ["admin.partners.update", { partnerId: partnerY, name: "Taken over" }],
    ["admin.partners.issueApiKey", { partnerId: partnerY }],
  ] as const) {
    const write = await page.request.post(`/api/trpc/${procedure}`, { data: body });
    expect(write.status()).toBe(404);
    expect((await write.json()).error.message).toBe("Partner not found");
  }
  await signOut(page);

  // Y's own staff see their partner, unchanged, with the one key the CLI issued.
  await signIn(page, staffY.email, staffY.password);
  await page.goto(`/admin/partners/${partnerY}`);
  await expect(page.getByRole("heading", { name: "Y Confidential Partner", level: 1 })).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: "active" })).toHaveCount(1);
  const unknownToY = await page.request.get(
    `/api/trpc/admin.partners.get?input=${encodeURIComponent(JSON.stringify({ partnerId: demo().partnerId }))}`,
  );
  expect(unknownToY.status()).toBe(404);
});
