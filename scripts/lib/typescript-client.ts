import path from "node:path";
import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from "openapi-typescript";
import { buildOpenApiDocument } from "../../server/api/openapi";

/** The generated types of the typed client (docs/api.md, "Typed client"). */
export const CLIENT_SCHEMA_FILE = path.join(import.meta.dirname, "../../clients/typescript/schema.d.ts");

/** The address in the document the client is generated from; only its descriptions' links carry it. */
const DOCUMENT_BASE_URL = "http://localhost:3000";

/**
 * clients/typescript/schema.d.ts as `npm run generate:client` writes it: openapi-typescript's types
 * of the OpenAPI document the service serves. test/clients/typescript-client.test.ts fails when
 * the file differs.
 */
export async function generateClientSchema(): Promise<string> {
  const document = buildOpenApiDocument(DOCUMENT_BASE_URL) as unknown as OpenAPI3;
  const ast = await openapiTS(document);
  return `${COMMENT_HEADER}// Regenerate with \`npm run generate:client\` (docs/api.md, "Typed client").\n\n${astToString(ast)}`;
}
