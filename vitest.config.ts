import path from "node:path";
import { configDefaults, defineConfig } from "vitest/config";

/** Pure modules' tests: no database, no server, no global setup (`npm run test:unit`). */
const UNIT = "test/unit/**/*.test.ts";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    pool: "forks",
    // Each integration test file gets its own database (a PGlite instance or a PostgreSQL database
    // cloned from the migrated template); two workers match the machines' two cores.
    maxWorkers: 2,
    // The app key that encrypts webhook signing secrets (else one would be generated into DATA_DIR);
    // info lines (one per onboarded customer, ...) would bury the results: warnings and errors still show.
    env: { APP_SECRET: "test-only-app-secret-0123456789abcdef0123456789", LOG_LEVEL: process.env.LOG_LEVEL ?? "warn" },
    // `npm test` runs both projects; `npm run test:unit` only the first (docs: README.md, "Tests").
    projects: [
      { extends: true, test: { name: "unit", include: [UNIT], testTimeout: 5_000 } },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["test/**/*.test.ts"],
          exclude: [...configDefaults.exclude, UNIT],
          globalSetup: ["test/global-setup.ts"],
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
