import { createHmac } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { demo, distributorHeaders } from "../demo";
import { mailTo } from "../mail";
import { expectAccessible } from "../portal";

/**
 * A partner's webhook endpoint in the admin UI (docs/admin-ui.md), against the service as
 * `npm start` runs it: the partner's receiver fails, the distributor's staff open the endpoint
 * and see its health and delivery log, the partner's contact address got the warning
 * (docs/webhooks.md, "Health and warnings"), and once the receiver works again staff recover
 * the failed delivery on the partner's behalf.
 */

/** A receiver on 127.0.0.1 that answers 503 until told to work, then signs its answers (docs/webhooks.md). */
async function startReceiver() {
  let secret = "";
  let working = false;
  let requests = 0;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      requests++;
      if (!working) {
        response.writeHead(503).end("down for maintenance");
        return;
      }
      const body = Buffer.concat(chunks).toString("utf8");
      const answer = createHmac("sha256", secret)
        .update(`${String(request.headers["x-token"])}:${body}`)
        .digest("hex");
      response.writeHead(200, { "X-Signature": answer }).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    requests: () => requests,
    useSecret: (value: string) => (secret = value),
    work: () => (working = true),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A new partner of the demo distributor, with a contact address and an API key (the distributor API). */
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

test("staff open a partner's failing endpoint: its health and delivery log, the owner's warning, and recover on its behalf", async ({
  page,
  request,
}, testInfo) => {
  const shot = (name: string) => page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });
  const receiver = await startReceiver();
  try {
    const stamp = Date.now().toString(36);
    const partnerName = `E2E Webhook Partner ${stamp}`;
    const contactEmail = `ops-${stamp}@e2e-webhooks.example`;
    const partner = await createPartner(request, partnerName, contactEmail);

    // The partner's endpoint (one attempt per event) at the receiver, which is down.
    const hook = await request.post("/api/v1/integrations/webhooks", {
      headers: partner.headers,
      data: { url: receiver.url, eventTypes: ["customer.created"], maxAttempts: 1 },
    });
    expect(hook.status()).toBe(200);
    const webhook = (await hook.json()).webhook as { id: string; secret: string };
    receiver.useSecret(webhook.secret);
    const onboard = await request.post("/api/v1/integrations/customer/onboard", {
      headers: partner.headers,
      data: {
        companyName: "Webhook Outage Ltd",
        contactEmail: `it@${stamp}.example`,
        customerReference: `E2E-WH-${stamp}`,
        assetsDomains: [`${stamp}.example`],
        price: 0,
        currencyCode: "EUR",
      },
    });
    expect(onboard.status()).toBe(200);
    await expect
      .poll(async () => {
        const log = await request.get(`/api/v1/integrations/webhooks/${webhook.id}/deliveries?status=failed`, { headers: partner.headers });
        return ((await log.json()).deliveries as unknown[]).length;
      })
      .toBe(1);

    // The partner's contact address was told, and its distributor's staff see that message too.
    const warning = await mailTo(contactEmail);
    expect(warning.subject).toBe(`Webhook deliveries are failing: ${receiver.url}`);
    expect(warning.text).toContain(`/api/v1/integrations/webhooks/${webhook.id}/recover`);

    await page.goto("/admin/sign-in");
    await page.getByLabel("E-mail").fill(demo().staffEmail);
    await page.getByLabel("Password").fill(demo().staffPassword);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();

    // The partners' endpoints, by health.
    await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Webhooks", exact: true }).click();
    await page.getByRole("navigation", { name: "Filter partners' endpoints by health" }).getByRole("link", { name: "failing" }).click();
    const row = page.getByRole("row").filter({ hasText: partnerName });
    await expect(row).toContainText(receiver.url);
    await expect(row).toContainText("failing");
    await expect(row).toContainText("current (v1)");
    await expectAccessible(page);
    await shot("01-partner-endpoints");

    // The endpoint: its health, and the failed delivery with its attempt.
    await row.getByRole("link", { name: receiver.url }).click();
    await expect(page.getByRole("heading", { name: receiver.url, level: 1 })).toBeVisible();
    await expect(page.getByText(`Endpoint of the partner ${partnerName}`)).toBeVisible();
    const fact = (term: string) => page.locator(".facts dt", { hasText: term }).locator("xpath=following-sibling::dd[1]");
    await expect(fact("State")).toContainText("failing");
    await expect(fact("Failed deliveries in a row")).toHaveText("1");
    await expect(fact("Failing since")).toHaveText(/UTC$/);
    const failedRow = page.getByRole("row").filter({ hasText: "customer.created" });
    await expect(failedRow).toContainText("failed");
    await failedRow.getByText("1 attempt").click();
    await expect(failedRow.getByRole("group").getByRole("listitem")).toHaveText([/: HTTP 503, \d+ ms/]);
    // A partner's settings are its own: no settings form or test events here.
    await expect(page.getByRole("form", { name: "Endpoint settings" })).toHaveCount(0);
    await expectAccessible(page);
    await shot("02-partner-endpoint-failing");

    // The receiver works again: recover on the partner's behalf (the window starts at the oldest failed delivery).
    receiver.work();
    await page.getByRole("button", { name: "Recover failed deliveries" }).click();
    await expect(page.getByRole("status").filter({ hasText: "1 delivery queued again" })).toBeVisible();
    await expect(async () => {
      await page.getByRole("button", { name: "Refresh" }).click();
      await expect(failedRow).toContainText("delivered", { timeout: 1_000 });
    }).toPass();
    await expect(fact("State")).toContainText("healthy");
    await expect(fact("Last success")).toHaveText(/UTC$/);
    await shot("03-partner-endpoint-recovered");

    // The warning in the mail previews, as the partner's message.
    await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Mail previews", exact: true }).click();
    await page.getByRole("navigation", { name: "Filter by kind" }).getByRole("link", { name: "Webhook failing" }).click();
    const message = page.getByRole("row").filter({ hasText: contactEmail });
    await expect(message).toContainText(partnerName);
    await expect(message).toContainText("sent");
    await message.getByRole("link", { name: `Webhook deliveries are failing: ${receiver.url}` }).click();
    await expect(
      page.frameLocator("iframe[title^='HTML part']").getByRole("heading", { name: "Your webhook endpoint is failing" }),
    ).toBeVisible();
    await shot("04-warning-preview");
  } finally {
    await receiver.close();
  }
});
