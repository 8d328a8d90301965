/**
 * The client address a request came from, by the rule the staff sign-in uses
 * (server/auth/ui-session.ts): the first X-Forwarded-For entry; undefined without one.
 */
export function clientAddress(headers: Headers): string | undefined {
  return headers.get("x-forwarded-for")?.split(",")[0]?.trim() || undefined;
}
