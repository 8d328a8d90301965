import { expect, test, type Page } from "@playwright/test";
import { startOidcProvider, type TestOidcProvider } from "../../test/helpers/oidc-provider";
import { admin, requireAdminCli } from "../demo";

/**
 * Single sign-on in Debian's Chromium against a real OpenID provider (oidc-provider) running in
 * the test (docs/admin-ui.md, "Single sign-on"): the sign-in, an ID token for another audience or
 * with a bad signature refused, a replayed callback refused, and "SSO required" with a
 * break-glass account. The distributor and its settings are made with the admin CLI.
 */
const CLIENT_ID = "e2e-admin-ui";
const CLIENT_SECRET = "e2e client secret of the provider";
const DOMAIN = "sso-e2e.example";
const PASSWORD = "a staff passphrase of e2e";

let idp: TestOidcProvider;
let distributorId: string;
let member: string;
let breakGlass: string;

test.beforeAll(async ({ baseURL }) => {
  if (!process.env.E2E_DATABASE_URL) return;
  distributorId = String((await admin("create-distributor", "--name", "E2E single sign-on")).id);
  idp = await startOidcProvider({
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    redirectUris: [`${baseURL}/api/auth/callback/sso-${distributorId}`],
  });
  const stamp = Date.now().toString(36);
  breakGlass = `owner-${stamp}@${DOMAIN}`;
  member = `member-${stamp}@${DOMAIN}`;
  await admin("create-staff", "--distributor", distributorId, "--email", breakGlass, "--password", PASSWORD);
  await admin("create-staff", "--distributor", distributorId, "--email", member, "--password", PASSWORD, "--role", "viewer");
  await admin(
    "set-sso",
    ...["--distributor", distributorId, "--issuer", idp.issuer, "--client-id", CLIENT_ID, "--client-secret", CLIENT_SECRET],
    ...["--allowed-domain", DOMAIN, "--break-glass", breakGlass],
  );
});
test.afterAll(async () => {
  await idp?.close();
});
test.beforeEach(() => {
  requireAdminCli();
  idp.tamper("none");
  idp.signInAs({ sub: `sub-${member}`, email: member });
});

async function startSingleSignOn(page: Page) {
  await page.goto(`/admin/sign-in?sso=${distributorId}`);
  await page.getByRole("button", { name: "Use single sign-on" }).click();
}

test("signs in by single sign-on, the account linked at the first sign-in", async ({ page }) => {
  await startSingleSignOn(page);
  await expect(page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();
  await expect(page.locator(".admin-email")).toHaveText(member);
});

test("refuses an ID token for another audience", async ({ page }) => {
  idp.tamper("wrong-audience");
  await startSingleSignOn(page);
  await expect(page).toHaveURL(/\/admin\/sign-in\?.*error=OAuthCallback/);
  await expect(page.locator("#sign-in-error")).toContainText("could not be verified");
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/admin\/sign-in/);
});

test("refuses an ID token with a bad signature", async ({ page }) => {
  idp.tamper("bad-signature");
  await startSingleSignOn(page);
  await expect(page).toHaveURL(/\/admin\/sign-in\?.*error=OAuthCallback/);
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/admin\/sign-in/);
});

test("refuses a replayed callback: its state was spent", async ({ page, browser }) => {
  let callbackUrl = "";
  page.on("request", (request) => {
    if (request.url().includes(`/api/auth/callback/sso-${distributorId}`)) callbackUrl = request.url();
  });
  await startSingleSignOn(page);
  await expect(page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();
  expect(callbackUrl).toContain("state=");
  const other = await (await browser.newContext()).newPage();
  await other.goto(callbackUrl);
  await expect(other).toHaveURL(/\/admin\/sign-in\?.*error=OAuthCallback/);
  await other.goto("/admin");
  await expect(other).toHaveURL(/\/admin\/sign-in/);
});

test("SSO required: a password is refused, but a break-glass account signs in with one", async ({ page }) => {
  await admin(
    "set-sso",
    ...["--distributor", distributorId, "--issuer", idp.issuer, "--client-id", CLIENT_ID, "--client-secret", CLIENT_SECRET],
    ...["--allowed-domain", DOMAIN, "--required"],
  );
  await page.goto("/admin/sign-in");
  await page.getByLabel("E-mail").fill(member);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.locator("#sign-in-error")).toContainText("signs in with single sign-on");

  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("E-mail").fill(breakGlass);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();
});
