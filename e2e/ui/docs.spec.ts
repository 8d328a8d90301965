import { expect, test } from "@playwright/test";

test("the landing page links to the API reference", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Exposure monitoring" })).toBeVisible();
  await page.getByRole("link", { name: "API reference" }).click();
  await expect(page).toHaveURL(/\/docs$/);
});

test("the API reference renders the OpenAPI document", async ({ page }, testInfo) => {
  await page.goto("/docs");
  await expect(page.getByRole("heading", { name: /Exposure monitoring integration API/ })).toBeVisible();
  await expect(page.getByText("/api/v1/distributors/plans/{planId}")).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("docs.png"), fullPage: false });
});
