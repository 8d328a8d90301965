/**
 * `npm run --silent openapi [-- --out FILE]`: the OpenAPI document the service serves at
 * /api/openapi.json (for APP_URL), on stdout or into FILE. `npm run lint:openapi` lints it.
 */
import "./lib/load-env";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { buildOpenApiDocument } from "../server/api/openapi";
import { config } from "../server/config";

const document = JSON.stringify(buildOpenApiDocument(config.appUrl()), null, 2) + "\n";
const outIndex = process.argv.indexOf("--out");
if (outIndex === -1) {
  process.stdout.write(document);
} else {
  const file = process.argv[outIndex + 1];
  if (!file) {
    console.error("usage: openapi [--out FILE]");
    process.exit(2);
  }
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, document);
}
