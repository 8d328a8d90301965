import { config } from "../../config";
import type { Db } from "../../db/client";
import { defineJob } from "../../jobs/definition";
import { scheduleJob, slotPayload } from "../../jobs/schedules";
import { wakeJobWorkers } from "../../jobs/wake";
import { log } from "../../log";
import { mergeCatalogue } from "../catalogue/catalogue";
import { requestBreachMatching } from "./match-requests";
import { HibpBreachSource } from "./sources/hibp";

export const HIBP_KEY_MISSING =
  "HIBP_API_KEY is not set: the catalogue sync fetches Have I Been Pwned's breaches with that key (README.md, docs/breaches.md)";

/** Rejected records listed in the log, then a count. */
const MAX_LOGGED_REJECTIONS = 20;

export interface CatalogueSyncResult {
  added: number;
  updated: number;
}

/** The HIBP API as HIBP_API_KEY, HIBP_API_URL and HIBP_USER_AGENT configure it; undefined without a key. */
export function configuredCatalogueSource(): HibpBreachSource | undefined {
  const apiKey = config.hibpApiKey();
  return apiKey ? new HibpBreachSource({ apiKey, baseUrl: config.hibpApiUrl(), userAgent: config.hibpUserAgent() }) : undefined;
}

/**
 * The catalogue sync (docs/breaches.md): fetches HIBP's whole breach list first, outside any
 * transaction, then merges it in one transaction that also queues the matching of the breaches it
 * added. A failed fetch changes nothing; a malformed record is logged and the rest is merged.
 */
export async function syncCatalogue(db: Db, source: HibpBreachSource): Promise<CatalogueSyncResult> {
  const records = await source.allBreaches();
  const merge = await db.$transaction(
    async (tx) => {
      const result = await mergeCatalogue(tx, records);
      await requestBreachMatching(tx, result.added);
      return result;
    },
    { timeout: 60_000, maxWait: 30_000 },
  );
  if (merge.rejected.length > 0) {
    log.warn("catalogue sync: HIBP records rejected", {
      rejected: merge.rejected.length,
      first: merge.rejected.slice(0, MAX_LOGGED_REJECTIONS),
    });
  }
  if (merge.added.length > 0) await wakeJobWorkers();
  return { added: merge.added.length, updated: merge.updated.length };
}

/** The sync with the configured HIBP API; throws HIBP_KEY_MISSING without HIBP_API_KEY. */
export async function syncCatalogueFromHibp(db: Db): Promise<CatalogueSyncResult> {
  const source = configuredCatalogueSource();
  if (!source) throw new Error(HIBP_KEY_MISSING);
  return syncCatalogue(db, source);
}

export const catalogueSyncJob = defineJob({
  kind: "breaches.sync-catalogue",
  payload: slotPayload,
  async run(db) {
    const source = configuredCatalogueSource();
    if (!source) return;
    const result = await syncCatalogue(db, source);
    log.info("catalogue sync finished", { ...result });
  },
});

/**
 * Daily, an hour before the daily scan (docs/breaches.md), so the scan already knows the new
 * breaches. Without HIBP_API_KEY the job does nothing.
 */
export const catalogueSyncSchedule = scheduleJob(catalogueSyncJob, {
  name: "catalogue-sync",
  every: "day",
  hourUtc: 1,
});
