export interface AdminNavEntry {
  href: `/admin${string}`;
  label: string;
}

/**
 * The admin UI's navigation, in this order. A feature with its own admin page adds one entry
 * here (e.g. `{ href: "/admin/mail", label: "Mail previews" }`); its page goes under
 * app/admin/(console)/ to get the layout and calls adminApi() (app/admin/_lib/server.ts).
 */
export const ADMIN_NAV: AdminNavEntry[] = [
  { href: "/admin", label: "Overview" },
  { href: "/admin/partners", label: "Partners" },
  { href: "/admin/customers", label: "Customers" },
  { href: "/admin/brand", label: "Brand" },
  { href: "/admin/plans", label: "Plans" },
  { href: "/admin/billing-codes", label: "Billing codes" },
  { href: "/admin/webhooks", label: "Webhooks" },
  { href: "/admin/domains", label: "Domains" },
  { href: "/admin/breach-data", label: "Breach data" },
  { href: "/admin/billing", label: "Billing" },
  { href: "/admin/mail", label: "Mail previews" },
  { href: "/admin/staff", label: "Staff" },
  { href: "/admin/security", label: "Sign-in security" },
  { href: "/admin/audit", label: "Audit log" },
  { href: "/admin/account", label: "Account" },
];
