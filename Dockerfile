# The production image (docs/operations.md, "Container"). Its build steps are the package scripts
# CI runs on the host (.ci/run, "production install"): npm ci, npm run build, npm run prune:production.
# Linux x64 only, like the project (README.md): the build stage installs the project's Node 24 for x64.

FROM --platform=linux/amd64 node:24-slim AS build
WORKDIR /app
ENV NEXT_TELEMETRY_DISABLED=1
# The dependencies first, so a change of the sources reuses this layer; npm ci's postinstall
# generates the Prisma client from the schema.
COPY package.json package-lock.json .npmrc prisma.config.ts ./
COPY tools ./tools
COPY prisma ./prisma
RUN npm ci --no-audit --no-fund
COPY . .
# PRUNE_ALSO=inngest also leaves Inngest out, for a deployment that never uses Inngest mode.
ARG PRUNE_ALSO=""
RUN npm run build && npm run prune:production -- $PRUNE_ALSO

FROM --platform=linux/amd64 node:24-slim
WORKDIR /app
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 PORT=3000 DATA_DIR=/data
RUN mkdir /data && chown node:node /data
COPY --from=build /app/package.json /app/next.config.js ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/.next ./.next
COPY --from=build /app/dist ./dist
COPY --from=build /app/scripts/prestart.mjs ./scripts/
COPY --from=build /app/prisma ./prisma
COPY --from=build /app/data ./data
# The embedded database (without DATABASE_URL) and the .eml files (without SMTP_URL) live in /data.
VOLUME /data
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=120s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/api/v1/health`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# dist/start.js migrates, then serves; on SIGTERM it drains and exits 0 within 10 s.
STOPSIGNAL SIGTERM
CMD ["node", "dist/start.js"]
