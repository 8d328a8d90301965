# The production image (docs/operations.md, "Container"). Its build steps are the package scripts
# CI runs on the host (.ci/run, "runtime payload"): npm ci, npm run build, npm run runtime-payload,
# and its runtime stage is the directory the last one assembles, which CI starts the server from.
# No platform is fixed: it builds for the builder's (linux/amd64 or linux/arm64; the build stage's
# npm ci installs the project's Node 24 and the native packages for it). The base image is named by
# its tag and pinned by digest; Renovate proposes each new digest of the tag (renovate.json).

FROM node:24-bookworm-slim@sha256:6f7b03f7c2c8e2e784dcf9295400527b9b1270fd37b7e9a7285cf83b6951452d AS build
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1
# The dependencies first, so a change of the sources reuses this layer; npm ci's postinstall
# generates the Prisma client from the schema.
COPY package.json package-lock.json .npmrc prisma.config.ts ./
COPY tools ./tools
COPY scripts/prisma-generate.mjs ./scripts/
COPY prisma ./prisma
RUN npm ci --no-audit --no-fund
COPY . .
# PRUNE_ALSO=inngest also leaves Inngest out, for a deployment that never uses Inngest mode.
ARG PRUNE_ALSO=""
# /runtime: the built app, the guides and the packages the server loads (traced), without the build
# cache, the source maps, the dev dependencies or what only building needs (scripts/runtime-payload.ts).
RUN npm run build && npm run runtime-payload -- /runtime ${PRUNE_ALSO:+--without "$PRUNE_ALSO"}

FROM node:24-bookworm-slim@sha256:6f7b03f7c2c8e2e784dcf9295400527b9b1270fd37b7e9a7285cf83b6951452d
ARG VERSION=0.1.0
ARG REVISION=""
LABEL org.opencontainers.image.title="exposure-monitor" \
      org.opencontainers.image.description="Breach-exposure monitoring integration service: partner and distributor REST API, signed webhooks, customer portal." \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.licenses="UNLICENSED" \
      org.opencontainers.image.documentation="/docs/api (served by the instance)"
WORKDIR /app
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 PORT=3000 DATA_DIR=/data
RUN mkdir /data && chown node:node /data
# package.json, next.config.js, .next, dist, prisma, data, docs (the guides served at /docs/<name>),
# scripts/prestart.mjs and the traced node_modules.
COPY --from=build /runtime ./
# The embedded database (without DATABASE_URL) and the .eml files (without SMTP_URL) live in /data.
VOLUME /data
USER node
EXPOSE 3000
# Liveness, not readiness: a database outage must not make an orchestrator restart every replica
# (docs/operations.md, "Health").
HEALTHCHECK --interval=30s --timeout=5s --start-period=120s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/api/live`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# dist/start.js migrates, then serves; on SIGTERM it drains and exits 0 within 10 s.
STOPSIGNAL SIGTERM
CMD ["node", "dist/start.js"]
