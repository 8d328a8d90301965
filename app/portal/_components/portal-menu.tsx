"use client";

import { usePathname } from "next/navigation";
import { useState, type ReactNode } from "react";
import styles from "../portal.module.css";

/**
 * The header's navigation and sign-out: always shown on a wide screen; on a phone behind a
 * "Menu" button (aria-expanded), so the header stays one short row. Closes on navigation.
 */
export function PortalMenu({ label, children }: { label: string; children: ReactNode }) {
  const pathname = usePathname();
  // Open on the page where it was opened; a navigation closes it.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  return (
    <>
      <button
        type="button"
        className={styles.menuButton}
        aria-expanded={open}
        aria-controls="portal-menu"
        onClick={() => setOpenOn(open ? null : pathname)}
      >
        {label}
      </button>
      <div id="portal-menu" className={open ? `${styles.menu} ${styles.menuOpen}` : styles.menu}>
        {children}
      </div>
    </>
  );
}
