import { z } from "zod";

/** Beyond this page an offset is meaningless (and must stay a safe integer). */
const MAX_PAGE = 10_000_000;

/** A 1-based page number; 1 when left out. */
export const pageInput = z.number().int().min(1).max(MAX_PAGE).default(1);

/**
 * Dates as ISO 8601 text: the UI procedures answer the browser over JSON (/api/trpc) and server
 * components in-process alike, so they return what survives JSON unchanged.
 */
export function iso(date: Date): string;
export function iso(date: Date | null): string | null;
export function iso(date: Date | null): string | null {
  return date ? date.toISOString() : null;
}
