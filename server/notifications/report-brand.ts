import type { Brand } from "../brand/brand";

/**
 * Whose name, logo and colour a report carries (docs/customers.md, "Reports"); `reportBrandOf`
 * derives it from the partner's resolved brand, and nothing else decides it.
 */
export interface ReportBrand {
  name: string;
  /** A PNG drawn in the report's header; none: the name alone. */
  logoPng?: Buffer | undefined;
  /** "#rrggbb": the title, headings and chart. */
  primaryColor: string;
  /** Support contacts printed under the name at the end. */
  contacts?: string[];
}

/** The ink of today's reports, their default primary colour. */
export const DEFAULT_REPORT_COLOR = "#1f2933";

/** The partner's brand as reports draw it; the service's own look keeps today's report. */
export function reportBrandOf(brand: Brand): ReportBrand {
  if (brand.source === "default") return { name: brand.name, primaryColor: DEFAULT_REPORT_COLOR };
  const contacts = [brand.supportEmail, brand.supportPhone, brand.supportUrl].filter((value): value is string => Boolean(value));
  return { name: brand.name, logoPng: brand.logo?.png, primaryColor: brand.primaryColor, contacts };
}
