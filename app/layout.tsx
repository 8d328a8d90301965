import type { Metadata } from "next";
import { connection } from "next/server";
import type { ReactNode } from "react";
import "./globals.css";

export const metadata: Metadata = {
  title: "Exposure monitoring",
  description: "Breach-exposure monitoring for partners, distributors and their customers",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page is rendered per request, so Next.js can put the request's CSP nonce on its scripts
  // (a prerendered page's would carry none; docs/operations.md, "Request limits and security headers").
  await connection();
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
