"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import type { AdminNavEntry } from "../nav";

/** The entry of the current page (or of the section it is in) is marked as current. */
export function AdminNav({ entries }: { entries: AdminNavEntry[] }) {
  const pathname = usePathname();
  const current = (href: string) => pathname === href || (href !== "/admin" && pathname.startsWith(`${href}/`));
  return (
    <nav className="admin-nav" aria-label="Admin">
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
