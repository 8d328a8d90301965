import { defineConfig } from "prisma/config";

// The Prisma CLI is used only for `prisma generate`; migrations go through the schema engine's
// WebAssembly build (server/db/migrations.ts), because the native engine cannot be downloaded.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
});
