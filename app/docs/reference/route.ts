import { listGuides } from "@/server/docs/guides";

// The readable API reference: Swagger UI (swagger-ui-dist, served locally, no CDN) over /api/openapi.json,
// under a bar that leads to the guides.
function page(): string {
  const guides = listGuides()
    .filter((guide) => guide.group === "Partner developers")
    .map((guide) => `<a href="/docs/${guide.name}">${guide.name === "api" ? "Conventions" : guide.title.split(":")[0]}</a>`)
    .join("");
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>API reference · Exposure monitoring</title>
  <link rel="icon" href="/icon.svg" type="image/svg+xml">
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
  <style>
    .docs-bar { display: flex; flex-wrap: wrap; gap: 0.25rem 1rem; align-items: baseline; padding: 0.6rem 1.25rem;
      background: #14213d; font-family: system-ui, sans-serif; font-size: 0.9rem; }
    .docs-bar a { color: #dbe4ff; text-decoration: none; }
    .docs-bar a:hover { text-decoration: underline; }
    .docs-bar .home { color: #fff; font-weight: 600; margin-right: 0.5rem; }
  </style>
</head>
<body>
  <nav class="docs-bar" aria-label="Documentation"><a class="home" href="/">Exposure monitoring</a>${guides}<a href="/api/openapi.json">OpenAPI</a></nav>
  <div id="swagger-ui"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/assets/init.js"></script>
</body>
</html>`;
}

// Rendered once at build time (the guide list is read from docs/ then, not at run time).
export const dynamic = "force-static";

let cached: string | undefined;

export function GET() {
  cached ??= page();
  return new Response(cached, { headers: { "Content-Type": "text/html; charset=utf-8" } });
}
