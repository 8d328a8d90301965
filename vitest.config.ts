import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Each test file gets its own database (a PGlite instance or a PostgreSQL database
    // cloned from the migrated template); two workers match the machines' two cores.
    maxWorkers: 2,
    // The app key that encrypts webhook signing secrets (else one would be generated into DATA_DIR);
    // info lines (one per onboarded customer, ...) would bury the results: warnings and errors still show.
    env: { APP_SECRET: "test-only-app-secret-0123456789abcdef0123456789", LOG_LEVEL: process.env.LOG_LEVEL ?? "warn" },
  },
});
