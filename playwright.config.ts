import { defineConfig } from "@playwright/test";

const port = Number(process.env.E2E_PORT ?? 3210);

/**
 * End-to-end suites against the built app, started the way an operator starts it
 * (e2e/global-setup.ts runs `npm start`'s script on a fresh embedded database).
 * Browser: Debian's Chromium (never a downloaded one).
 */
export default defineConfig({
  testDir: "e2e",
  outputDir: "e2e/artifacts/test-results",
  globalSetup: "./e2e/global-setup.ts",
  globalTeardown: "./e2e/global-teardown.ts",
  timeout: 60_000,
  workers: 1,
  reporter: [["list"], ["html", { outputFolder: "e2e/artifacts/report", open: "never" }]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    screenshot: "only-on-failure",
    trace: "retain-on-failure",
  },
  projects: [
    { name: "api", testMatch: "api/**/*.spec.ts" },
    // Server processes of their own, signalled and restarted: shutdown, scale-out (PostgreSQL only).
    { name: "operations", testMatch: "operations/**/*.spec.ts" },
    {
      name: "ui",
      testMatch: "ui/**/*.spec.ts",
      use: {
        browserName: "chromium",
        viewport: { width: 1280, height: 900 },
        launchOptions: {
          executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
          args: [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--disable-quic",
          ],
        },
      },
    },
  ],
});
