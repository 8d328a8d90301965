import { exposuresAtDomains, exposuresOfEmails } from "../exposures";
import type { BreachSource } from "./source";

/** The exposure index in our own database (filled by `admin import-breaches`). */
export const localBreachSource: BreachSource = {
  name: "local",
  remote: false,
  exposuresOfEmails,
  exposuresAtDomains,
};
