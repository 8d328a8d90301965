import type { PortalMessages } from "@/server/i18n/translations";

/**
 * The portal's navigation, in order. A feature with a page of its own adds an entry here and
 * its label to `nav` in messages.ts (in every locale).
 */
export const PORTAL_NAVIGATION: ReadonlyArray<{ href: string; label: keyof PortalMessages["nav"] }> = [
  { href: "/portal", label: "overview" },
  { href: "/portal/breaches", label: "breaches" },
  { href: "/portal/assets", label: "assets" },
  { href: "/portal/domains", label: "domains" },
  { href: "/portal/settings", label: "settings" },
];
