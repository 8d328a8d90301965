import { expect, request as requestFactory, test } from "@playwright/test";
import { partnerHeaders } from "../demo";
import { createMagicLink, DEMO_ACTIVE, demoCustomerId, serverLog, SESSION_COOKIE, tokenOf } from "../portal";

const tokensSeen: string[] = [];

async function linkFor(request: Parameters<typeof createMagicLink>[0], customerId: string) {
  const url = await createMagicLink(request, customerId);
  tokensSeen.push(tokenOf(url));
  return url;
}

test("a magic link signs in once; opening it again lands on the error page without a session", async ({ request, baseURL }) => {
  const customerId = await demoCustomerId(request, DEMO_ACTIVE);
  const url = await linkFor(request, customerId);
  expect(url.startsWith(`${baseURL}/auth/confirm?token_hash=`)).toBe(true);
  // a link checker's HEAD does not use the link up
  expect((await request.head(url, { maxRedirects: 0 })).status()).toBe(204);

  const first = await request.get(url, { maxRedirects: 0 });
  expect(first.status()).toBe(303);
  expect(first.headers()["location"]).toBe("/portal");
  expect(first.headers()["referrer-policy"]).toBe("no-referrer");
  expect(first.headers()["cache-control"]).toBe("no-store");
  expect(first.headers()["set-cookie"]).toMatch(new RegExp(`^${SESSION_COOKIE}=[^;]+; Path=/; Max-Age=\\d+; HttpOnly; SameSite=Lax`));

  const portal = await request.get("/portal");
  expect(portal.status()).toBe(200);
  expect(await portal.text()).toContain("Northwind Traders");

  const again = await request.get(url, { maxRedirects: 0 });
  expect(again.status()).toBe(303);
  expect(again.headers()["location"]).toBe("/auth/error?reason=used&lang=en-GB");
  expect(again.headers()["set-cookie"]).toBeUndefined();
  const errorPage = await request.get(again.headers()["location"]!);
  expect(await errorPage.text()).toContain("This sign-in link has already been used");
});

test("of simultaneous opens of one link, exactly one signs in", async ({ request, baseURL }) => {
  const url = await linkFor(request, await demoCustomerId(request, DEMO_ACTIVE));
  const browsers = await Promise.all(Array.from({ length: 5 }, () => requestFactory.newContext({ baseURL })));
  const answers = await Promise.all(browsers.map((browser) => browser.get(url, { maxRedirects: 0 })));
  const locations = answers.map((answer) => answer.headers()["location"]);
  expect(locations.filter((location) => location === "/portal")).toHaveLength(1);
  expect(locations.filter((location) => location === "/auth/error?reason=used&lang=en-GB")).toHaveLength(4);
  expect(answers.filter((answer) => answer.headers()["set-cookie"]?.startsWith(SESSION_COOKIE)).length).toBe(1);
  await Promise.all(browsers.map((browser) => browser.dispose()));
});

test("the magic-link endpoint answers its errors, also under the unversioned prefix", async ({ request }) => {
  const customerId = await demoCustomerId(request, DEMO_ACTIVE);
  const invalid = await request.post("/api/v1/integrations/customer/nope/magic-link", { headers: partnerHeaders() });
  expect([invalid.status(), await invalid.json()]).toEqual([
    400,
    { success: false, error: "Invalid route parameters: Customer ID must be a valid UUID" },
  ]);
  const unknown = await request.post("/api/v1/integrations/customer/6f1c2d3e-0000-4000-8000-000000000000/magic-link", {
    headers: partnerHeaders(),
  });
  expect([unknown.status(), await unknown.json()]).toEqual([
    404,
    { success: false, error: "Customer not found or does not belong to partner" },
  ]);
  const anonymous = await request.post(`/api/v1/integrations/customer/${customerId}/magic-link`);
  expect([anonymous.status(), await anonymous.json()]).toEqual([
    401,
    { success: false, error: "Partner ID and API key are required in headers" },
  ]);
  const legacy = await request.post(`/api/integrations/customer/${customerId}/magic-link`, { headers: partnerHeaders() });
  expect(legacy.status()).toBe(200);
  tokensSeen.push(tokenOf((await legacy.json()).url));
});

test("a link that is unknown or malformed lands on the error page", async ({ request }) => {
  const unknown = await request.get(`/auth/confirm?token_hash=${"A".repeat(43)}&type=magiclink`, { maxRedirects: 0 });
  expect(unknown.headers()["location"]).toBe("/auth/error?reason=invalid");
  const noType = await request.get(`/auth/confirm?token_hash=${"A".repeat(43)}`, { maxRedirects: 0 });
  expect(noType.headers()["location"]).toBe("/auth/error?reason=invalid");
  const page = await request.get("/auth/error?reason=invalid");
  expect(await page.text()).toContain("This sign-in link does not work");
});

test("signing out ends the session; the portal then shows the sign-in form", async ({ request, baseURL }) => {
  await request.get(await linkFor(request, await demoCustomerId(request, DEMO_ACTIVE)));
  expect((await request.get("/portal")).url()).toMatch(/\/portal$/);
  const signOut = await request.post("/auth/sign-out", { maxRedirects: 0, headers: { origin: baseURL! } });
  expect(signOut.status()).toBe(303);
  expect(signOut.headers()["location"]).toBe("/auth/error?reason=signed-out");
  expect(signOut.headers()["set-cookie"]).toContain(`${SESSION_COOKIE}=; Path=/; Max-Age=0`);
  const portal = await request.get("/portal");
  expect(portal.url()).toMatch(/\/portal\/sign-in$/);
});

test("offboarding the customer ends its portal session at once", async ({ request }) => {
  const onboard = await request.post("/api/v1/integrations/customer/onboard", {
    headers: partnerHeaders(),
    data: {
      companyName: "Offboarded Ltd",
      contactEmail: "it@offboarded.example",
      customerReference: `E2E-OFF-${Date.now()}`,
      assetsDomains: ["offboarded.example"],
      price: 10,
      currencyCode: "GBP",
    },
  });
  const { customerId } = await onboard.json();
  await request.get(await linkFor(request, customerId));
  expect((await request.get("/portal")).url()).toMatch(/\/portal$/);

  const offboard = await request.post("/api/v1/integrations/customer/offboard", { headers: partnerHeaders(), data: { customerId } });
  expect(offboard.status()).toBe(200);
  expect((await request.get("/portal")).url()).toContain("/auth/error?reason=session-ended");
  const link = await request.post(`/api/v1/integrations/customer/${customerId}/magic-link`, { headers: partnerHeaders() });
  expect([link.status(), await link.json()]).toEqual([422, { success: false, error: "Customer cannot sign in: customer is inactive" }]);
});

test("no magic-link token ever reaches the server log", async ({ request }) => {
  const url = await linkFor(request, await demoCustomerId(request, DEMO_ACTIVE));
  await request.get(url);
  await request.get(url);
  await expect.poll(() => serverLog().split("portal sign-in").length).toBeGreaterThan(1);
  const log = serverLog();
  expect(log).toContain("magic link created");
  for (const token of tokensSeen) expect(log).not.toContain(token);
});
