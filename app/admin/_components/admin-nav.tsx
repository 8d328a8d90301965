"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useRef } from "react";
import type { AdminNavEntry } from "../nav";

/**
 * The entry of the current page (or of the section it is in) is marked as current. On a phone the
 * entries are one row that scrolls sideways: the row is scrolled so the current entry is in view.
 */
export function AdminNav({ entries }: { entries: AdminNavEntry[] }) {
  const pathname = usePathname();
  const navRef = useRef<HTMLElement>(null);
  const current = (href: string) => pathname === href || (href !== "/admin" && pathname.startsWith(`${href}/`));

  useEffect(() => {
    const nav = navRef.current;
    const link = nav?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!nav || !link || nav.scrollWidth <= nav.clientWidth) return;
    const navBox = nav.getBoundingClientRect();
    const linkBox = link.getBoundingClientRect();
    if (linkBox.left >= navBox.left && linkBox.right <= navBox.right) return;
    // Only the row scrolls (scrollIntoView would also move the page, away from a #fragment).
    nav.scrollLeft += linkBox.left - navBox.left - (navBox.width - linkBox.width) / 2;
  }, [pathname]);

  return (
    <nav className="admin-nav" aria-label="Admin" ref={navRef}>
      <ul>
        {entries.map((entry) => (
          <li key={entry.href}>
            <Link href={entry.href} aria-current={current(entry.href) ? "page" : undefined}>
              {entry.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
