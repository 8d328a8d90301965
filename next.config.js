/** @type {import('next').NextConfig} */
const nextConfig = {
  // Loaded by Node at run time instead of bundled: PGlite ships WebAssembly and data files,
  // pg and the adapters are Node-only, argon2 is a native package, pdfkit reads its font metrics
  // from its own directory at run time; prom-client keeps the process's metrics (one copy for every bundle).
  serverExternalPackages: [
    "@electric-sql/pglite",
    "pglite-prisma-adapter",
    "@prisma/adapter-pg",
    "pg",
    "@node-rs/argon2",
    "swagger-ui-dist",
    "pdfkit",
    "prom-client",
    // Loaded only in Inngest mode (server/startup/background.ts, app/api/inngest/route.ts).
    "inngest",
  ],
  // The build type-checks what ships (app/, server/, inngest/, scripts/), not test/, e2e/ or bench/:
  // `npm run typecheck` checks everything (tsconfig.json).
  typescript: { tsconfigPath: "tsconfig.build.json" },
  poweredByHeader: false,
  reactStrictMode: true,
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "X-Frame-Options", value: "DENY" },
        ],
      },
      {
        // Every path but the REST API's (JSON answers, never a page: these two concern documents
        // a browser renders; docs/operations.md, "Security headers"). No page uses these features;
        // an injected script or a framed page cannot either. The CSP and HSTS depend on the request
        // and APP_URL, so the production server adds them (server/http/edge-guard.ts).
        source: "/((?!api/v1/|api/integrations/).*)",
        headers: [
          { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
          {
            key: "Permissions-Policy",
            value: "accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), payment=(), usb=()",
          },
        ],
      },
      {
        // Sign-in addresses carry one-time tokens: never passed on as a Referer (the last rule wins).
        source: "/auth/:path*",
        headers: [{ key: "Referrer-Policy", value: "no-referrer" }],
      },
    ];
  },
};

export default nextConfig;
