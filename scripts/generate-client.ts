/** `npm run generate:client`: writes the typed client's types from the OpenAPI document (docs/api.md, "Typed client"). */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { CLIENT_SCHEMA_FILE, generateClientSchema } from "./lib/typescript-client";

writeFileSync(CLIENT_SCHEMA_FILE, await generateClientSchema());
console.log(`wrote ${path.relative(process.cwd(), CLIENT_SCHEMA_FILE)}`);
