import { config } from "../../../config";
import { HibpBreachSource } from "./hibp";
import { localBreachSource } from "./local";
import type { BreachSource } from "./source";

/** The breach source this process uses: the Have I Been Pwned API when HIBP_API_KEY is set, else the local exposure index. */
export function configuredBreachSource(): BreachSource {
  const apiKey = config.hibpApiKey();
  return apiKey ? new HibpBreachSource({ apiKey, baseUrl: config.hibpApiUrl(), userAgent: config.hibpUserAgent() }) : localBreachSource;
}
