import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Db } from "../../db/client";
import { importCatalogue } from "../catalogue/catalogue";
import { insertExposures, type Exposure } from "./exposures";

/** The bundled catalogue (data/README.md: HIBP, CC BY 4.0). */
export const BUNDLED_CATALOGUE = path.join(/*turbopackIgnore: true*/ process.cwd(), "data", "hibp-breaches.json");

/** Domains whose addresses the demo exposures are made for (reserved .example names: no real people). */
export const DEMO_DOMAINS = ["northwind.example", "contoso.example", "fabrikam.example"] as const;
const DEMO_MAILBOXES = [
  "ceo",
  "cfo",
  "it",
  "sales",
  "support",
  "hr",
  "anna.berg",
  "lars.nilsen",
  "mikko.virtanen",
  "sofie.jensen",
  "jan.devries",
  "emma.jones",
];
const SEED = 20261121;

/** mulberry32: a small seeded generator, so every demo database gets the same exposures. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Deterministic demo exposures: most mailboxes of each demo domain appear in one to four
 * catalogue breaches (neither sensitive nor retired), picked by a seeded generator from the
 * catalogue in name order. Returns how many exposures were new.
 */
export async function generateDemoExposures(db: Db): Promise<number> {
  const breaches = await db.breach.findMany({
    where: { isSensitive: false, isRetired: false, isSpamList: false },
    orderBy: { name: "asc" },
    select: { id: true },
  });
  if (breaches.length === 0) return 0;
  const random = seededRandom(SEED);
  const exposures: Exposure[] = [];
  for (const domain of DEMO_DOMAINS) {
    for (const mailbox of DEMO_MAILBOXES) {
      if (random() < 0.25) continue;
      const count = 1 + Math.floor(random() * 4);
      for (let i = 0; i < count; i++) {
        exposures.push({ email: `${mailbox}@${domain}`, breachId: breaches[Math.floor(random() * breaches.length)]!.id });
      }
    }
  }
  return insertExposures(db, exposures);
}

/** The bundled catalogue and the demo exposures (npm start on an empty embedded database). */
export async function importDemoBreachData(db: Db): Promise<{ breaches: number; exposures: number }> {
  const catalogue = JSON.parse(await readFile(BUNDLED_CATALOGUE, "utf8")) as unknown;
  const { imported } = await importCatalogue(db, catalogue);
  return { breaches: imported, exposures: await generateDemoExposures(db) };
}
