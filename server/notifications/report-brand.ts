/**
 * Whose name, logo and colour a report carries (docs/customers.md, "Reports"). The renderers
 * take it as an optional `brand`; without one they keep the service's own look with the
 * partner's name, decided here and nowhere else.
 */
export interface ReportBrand {
  name: string;
  /** A PNG drawn in the report's header; none: the name alone. */
  logoPng?: Buffer | undefined;
  /** "#rrggbb": the title, headings and chart. */
  primaryColor: string;
}

/** The ink of today's reports, their default primary colour. */
export const DEFAULT_REPORT_COLOR = "#1f2933";

export function reportBrand(partnerName: string, brand?: ReportBrand): ReportBrand {
  return brand ?? { name: partnerName, primaryColor: DEFAULT_REPORT_COLOR };
}
