import type { HeaderSource } from "./headers";

/**
 * The client address that per-client limits count under: the staff sign-in's rule
 * (server/auth/ui-session.ts), the first X-Forwarded-For entry. One place to change it.
 */
export function clientAddressOf(headers: HeaderSource): string | undefined {
  return headers.get("x-forwarded-for")?.split(",")[0]?.trim() || undefined;
}
