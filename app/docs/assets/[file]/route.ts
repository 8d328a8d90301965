import { readFile } from "node:fs/promises";
import path from "node:path";
import { getAbsoluteFSPath } from "swagger-ui-dist";

// validatorUrl: null, or Swagger UI would load a badge from validator.swagger.io (refused by the CSP, and a leak of the address).
// "Try it out" calls the origin the page came from, not the document's server (APP_URL): the page's
// CSP allows only its own origin, and behind another host name APP_URL may not even be reachable.
const INIT = `window.ui = SwaggerUIBundle({ url: "/api/openapi.json", dom_id: "#swagger-ui", deepLinking: true, docExpansion: "list", validatorUrl: null,
  requestInterceptor: (request) => {
    const target = new URL(request.url, window.location.href);
    if (target.origin !== window.location.origin) request.url = window.location.origin + target.pathname + target.search;
    return request;
  } });`;
const FILES: Record<string, string> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
};

export async function GET(_request: Request, { params }: { params: Promise<{ file: string }> }) {
  const { file } = await params;
  if (file === "init.js") return new Response(INIT, { headers: { "Content-Type": "text/javascript; charset=utf-8" } });
  const type = FILES[file];
  if (!type) return new Response("Not found", { status: 404 });
  const body = await readFile(path.join(getAbsoluteFSPath(), file));
  return new Response(body, { headers: { "Content-Type": type, "Cache-Control": "public, max-age=86400" } });
}
