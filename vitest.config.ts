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
    // Info lines (one per onboarded customer, ...) would bury the results; warnings and errors still show.
    env: { LOG_LEVEL: process.env.LOG_LEVEL ?? "warn" },
  },
});
