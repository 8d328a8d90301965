/**
 * The server's layers, lowest first (ARCHITECTURE.md, "Layers and their rules"). A folder of
 * server/ imports only folders of lower tiers, never one of its own tier or above; the shared
 * files (server/*.ts) and db/ share the lowest tier, where db/ imports of the shared files only
 * config.ts, log.ts and shutdown.ts. eslint.config.js enforces it; test/unit/layers.test.ts
 * checks that every folder has a tier and that ARCHITECTURE.md lists the same ones.
 */
export const SERVER_TIERS = [
  ["*.ts", "db"],
  ["metrics", "i18n", "docs"],
  ["http", "jobs", "events", "audit", "brand"],
  ["breaches/catalogue"],
  ["breaches/exposure-index"],
  ["notifications"],
  ["auth", "webhooks"],
  ["distributors"],
  ["customers"],
  ["findings"],
  ["domains", "portal", "psa"],
  ["directory"],
  ["api", "startup", "cli"],
];

/** The shared files db/ may import. */
export const DB_SHARED_IMPORTS = ["config", "log", "shutdown", "process-slot"];

const path = (layer) => (layer === "*.ts" ? "./server/*.ts" : `./server/${layer}/**`);
const name = (layer) => (layer === "*.ts" ? "server/*.ts" : `server/${layer}/`);

/** import/no-restricted-paths zones: for each layer, every layer of its tier and above. */
export function layerZones() {
  const zones = [];
  SERVER_TIERS.forEach((tier, index) => {
    const below = SERVER_TIERS.slice(0, index === 0 ? 1 : index)
      .flat()
      .map(name);
    const allowed = below.join(", ");
    for (const layer of tier) {
      const forbidden = SERVER_TIERS.slice(index)
        .flat()
        .filter((other) => other !== layer && !(index === 0 && tier.includes(other)));
      if (forbidden.length === 0) continue;
      zones.push({
        target: path(layer),
        from: forbidden.map(path),
        message: `layer rule (ARCHITECTURE.md, "Layers and their rules"): ${name(layer)} is in tier ${index} and imports only ${allowed}.`,
      });
    }
  });
  zones.push({
    target: path("db"),
    from: [`./server/!(${DB_SHARED_IMPORTS.join("|")}).ts`],
    message: `layer rule (ARCHITECTURE.md, "Layers and their rules"): server/db/ imports of the shared files only ${DB_SHARED_IMPORTS.map((file) => `${file}.ts`).join(", ")}.`,
  });
  // The background driver is chosen where the process is composed (instrumentation.ts), so server/ knows none.
  zones.push({
    target: "./server",
    from: ["./inngest", "./app", "./scripts"],
    message: 'layer rule (ARCHITECTURE.md, "Layers and their rules"): server/ imports nothing of inngest/, app/ or scripts/.',
  });
  return zones;
}
