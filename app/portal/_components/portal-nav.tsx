"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import styles from "../portal.module.css";

/** The portal's navigation list; the current page is marked for assistive technology too. */
export function PortalNav({ label, items }: { label: string; items: Array<{ href: string; label: string }> }) {
  const pathname = usePathname();
  const isCurrent = (href: string) => (href === "/portal" ? pathname === href : pathname === href || pathname.startsWith(`${href}/`));
  return (
    <nav aria-label={label} className={styles.nav}>
      <ul>
        {items.map((item) => (
          <li key={item.href}>
            <Link href={item.href} aria-current={isCurrent(item.href) ? "page" : undefined} prefetch={false}>
              {item.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
