import type { Metadata } from "next";
import type { ReactNode } from "react";
import "./admin.css";

export const metadata: Metadata = {
  title: { template: "%s · Admin · Exposure monitoring", default: "Admin · Exposure monitoring" },
  robots: { index: false, follow: false },
};

/** Every /admin page, the sign-in page included: the admin UI's styles. Signed-in pages are under (console). */
export default function AdminRootLayout({ children }: { children: ReactNode }) {
  return children;
}
