import { buildOpenApiDocument } from "@/server/api/openapi";
import { config } from "@/server/config";

let cached: string | undefined;

export function GET() {
  cached ??= JSON.stringify(buildOpenApiDocument(config.appUrl()));
  return new Response(cached, { headers: { "Content-Type": "application/json; charset=utf-8" } });
}
