import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";
import { layerZones } from "./eslint.layers.js";

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  globalIgnores([
    ".next/**",
    "dist/**",
    "node_modules/**",
    "server/db/generated/**",
    "clients/typescript/schema.d.ts",
    "clients/typescript/dist/**",
    ".openapi/**",
    ".data/**",
    ".data-*/**",
    "next-env.d.ts",
    "test-results/**",
    "playwright-report/**",
    "e2e/artifacts/**",
    "bench/results/**",
  ]),
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "no-console": ["error", { allow: ["error", "warn"] }],
    },
  },
  {
    files: ["scripts/**", "bench/**", "e2e/**"],
    rules: { "no-console": "off" },
  },
  {
    files: ["test/**", "e2e/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    files: ["server/**/*.ts", "server/**/*.tsx"],
    rules: {
      "import/no-restricted-paths": ["error", { basePath: import.meta.dirname, zones: layerZones() }],
      "import/no-cycle": ["error", { ignoreExternal: true }],
      "no-restricted-properties": [
        "error",
        { object: "process", property: "env", message: "Read environment switches through server/config.ts (README.md lists them)." },
      ],
    },
  },
  {
    files: ["server/config.ts"],
    rules: { "no-restricted-properties": "off" },
  },
]);
