import { expect, test, type Browser, type Page } from "@playwright/test";
import { admin, requireAdminCli } from "../demo";
import { mailTo } from "../mail";

/**
 * A staff member's password and sessions in Debian's Chromium (docs/admin-ui.md): changing the
 * password (its rules and messages) signs out the member's other browser; "Forgot password" sends
 * a one-time link by e-mail (the server's .eml files) that sets a new password once; "Sign out
 * everywhere" ends every session. Each test has a staff account of its own, made with the admin CLI.
 */

const PASSWORD = "first staff passphrase";

async function newStaff(label: string): Promise<string> {
  requireAdminCli();
  const distributor = String((await admin("create-distributor", "--name", `E2E ${label}`)).id);
  const email = `${label}-${Date.now().toString(36)}@e2e.example`;
  await admin("create-staff", "--distributor", distributor, "--email", email, "--password", PASSWORD);
  return email;
}

async function signIn(page: Page, email: string, password: string) {
  await page.goto("/admin/sign-in");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Overview", level: 1 })).toBeVisible();
}

/** A second browser (its own cookies) signed in as the same staff member. */
async function otherBrowser(browser: Browser, email: string, password: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, email, password);
  return page;
}

async function expectSignedOut(page: Page) {
  await page.goto("/admin/partners");
  await expect(page).toHaveURL(/\/admin\/sign-in$/);
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
}

/** The new-password fields by their ids (their labels also name the form "Choose a new password"). */
async function fillNewPassword(page: Page, password: string, repeat = password) {
  await page.locator("#field-newPassword").fill(password);
  await page.locator("#field-repeatPassword").fill(repeat);
}

test("a staff member changes their password; the rules are explained and their other browser is signed out", async ({
  page,
  browser,
}, testInfo) => {
  const email = await newStaff("change");
  await signIn(page, email, PASSWORD);
  const phone = await otherBrowser(browser, email, PASSWORD);

  await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Account", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Account", level: 1 })).toBeVisible();
  const form = page.getByRole("form", { name: "Change password" });
  const submit = form.getByRole("button", { name: "Change password" });

  await form.getByLabel("Current password").fill("not the password");
  await fillNewPassword(page, "a second staff passphrase");
  await submit.click();
  await expect(form.getByRole("alert")).toHaveText("The current password is not right");

  await form.getByLabel("Current password").fill(PASSWORD);
  await fillNewPassword(page, "elevenchars");
  await submit.click();
  await expect(form.locator("#field-newPassword-error")).toHaveText("Password must be at least 12 characters");
  await expect(form.locator("#field-newPassword")).toHaveAttribute("aria-invalid", "true");

  await fillNewPassword(page, "qwerty123456");
  await submit.click();
  await expect(form.locator("#field-newPassword-error")).toHaveText(
    "This password is on a list of the most common passwords; choose another",
  );

  await fillNewPassword(page, "a second staff passphrase", "a second staff passphrasf");
  await submit.click();
  await expect(form.locator("#field-repeatPassword-error")).toHaveText("The two new passwords are not the same");

  await fillNewPassword(page, "a second staff passphrase");
  await submit.click();
  await expect(form.getByRole("status")).toHaveText("Your password has been changed. 1 other session was signed out.");
  await page.screenshot({ path: testInfo.outputPath("password-changed.png"), fullPage: true });

  await expectSignedOut(phone);
  await page.goto("/admin/partners");
  await expect(page.getByRole("heading", { name: "Partners", level: 1 })).toBeVisible();

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.locator(".form-error")).toHaveText("The e-mail address or password is not right.");
  await signIn(page, email, "a second staff passphrase");
});

test("forgot password: the e-mailed link sets a new password once and signs out every session", async ({ page, browser }, testInfo) => {
  const email = await newStaff("forgot");
  const signedIn = await otherBrowser(browser, email, PASSWORD);

  await page.goto("/admin/sign-in");
  await page.getByRole("link", { name: "Forgot your password?" }).click();
  await expect(page.getByRole("heading", { name: "Forgot password", level: 1 })).toBeVisible();
  await page.getByLabel("E-mail").fill(email);
  await page.getByRole("button", { name: "Send reset link" }).click();
  const answer = page.getByRole("status");
  await expect(answer).toHaveText(/^If an admin account has this e-mail address, a link to choose a new password is on its way/);
  const answerForAccount = await answer.textContent();
  await page.screenshot({ path: testInfo.outputPath("forgot-password-sent.png") });

  // an unknown address gets the same answer
  await page.goto("/admin/forgot-password");
  await page.getByLabel("E-mail").fill(`nobody-${Date.now().toString(36)}@e2e.example`);
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(page.getByRole("status")).toHaveText(answerForAccount!);

  const mail = await mailTo(email);
  expect(mail.subject).toBe("Reset your admin password");
  const link = new URL(mail.text!.match(/http\S+\/admin\/reset-password\?token=[A-Za-z0-9_-]{43}/)![0]);
  const path = `${link.pathname}${link.search}`;

  await page.goto(path);
  await expect(page.getByRole("heading", { name: "Choose a new password", level: 1 })).toBeVisible();
  await fillNewPassword(page, "short");
  await page.getByRole("button", { name: "Set new password" }).click();
  await expect(page.locator("#field-newPassword-error")).toHaveText("Password must be at least 12 characters");
  await fillNewPassword(page, "a password from the link");
  await page.getByRole("button", { name: "Set new password" }).click();
  await expect(page.getByRole("status")).toHaveText(
    "Your password has been changed, and every session of your account has been signed out.",
  );
  await page.screenshot({ path: testInfo.outputPath("password-reset.png") });

  await expectSignedOut(signedIn);
  await page.getByRole("link", { name: "Sign in with the new password" }).click();
  await signIn(page, email, "a password from the link");

  // the link works once
  await page.goto(path);
  await expect(page.locator(".form-error")).toHaveText("This password reset link has already been used. Ask for a new one.");
  await expect(page.locator("#field-repeatPassword")).toHaveCount(0);
});

test("sign out everywhere ends this session and the member's other ones", async ({ page, browser }) => {
  const email = await newStaff("everywhere");
  await signIn(page, email, PASSWORD);
  const laptop = await otherBrowser(browser, email, PASSWORD);

  await page.goto("/admin/account");
  await page.getByRole("button", { name: "Sign out everywhere" }).click();
  await page.getByRole("button", { name: "Yes, sign out everywhere" }).click();
  await expect(page.getByRole("status")).toHaveText("You have signed out everywhere.");
  await expectSignedOut(page);
  await expectSignedOut(laptop);
});

test("the link `reset-staff-password` prints sets a new password in the browser", async ({ page }) => {
  const email = await newStaff("cli-reset");
  const printed = await admin("reset-staff-password", "--email", email);
  const link = new URL(String(printed.url));
  await page.goto(`${link.pathname}${link.search}`);
  await fillNewPassword(page, "a password from the operator");
  await page.getByRole("button", { name: "Set new password" }).click();
  await expect(page.getByRole("status")).toHaveText(
    "Your password has been changed, and every session of your account has been signed out.",
  );
  await signIn(page, email, "a password from the operator");
});
